// What `fixloop serve` needs from its environment, checked before anything starts: every missing or
// bad setting is named in one message with what to set, so a first start from .env.example explains
// itself instead of ending in Probot's stack trace or its setup flow (which installs smee-client).
import { constants, accessSync, readFileSync, statSync } from 'node:fs';
import { createPrivateKey } from 'node:crypto';
import { resolve } from 'node:path';
import { githubTimeoutMs } from '../github/timed-fetch.ts';
import { UsageError } from './usage-error.ts';

export interface ServeSettings {
  appId: number;
  /** PEM text, from PRIVATE_KEY (which wins, as in Probot) or the file PRIVATE_KEY_PATH names. */
  privateKey: string;
  secret: string;
  port: number;
  host: string | undefined;
  webhookPath: string;
  /** Only when the operator set WEBHOOK_PROXY_URL: never a channel made up on their behalf. */
  webhookProxy: string | undefined;
  /** The deadline of each request to GitHub's API (FIXLOOP_GITHUB_TIMEOUT_SECONDS, 15 s). */
  githubTimeoutMs: number;
}

const REGISTER_HINT = 'no App yet? `fixloop serve --register` registers one from app.yml (docs/github-app.md#create-the-app)';

export function serveSettingsFrom(env: NodeJS.ProcessEnv, cwd: string = process.cwd()): ServeSettings {
  const problems: string[] = [];
  const appId = checkAppId(env.APP_ID, problems);
  const privateKey = checkPrivateKey(env, cwd, problems);
  // Probot would fall back to the secret "development": anyone could then send fixloop webhooks.
  if (!env.WEBHOOK_SECRET)
    problems.push(
      'WEBHOOK_SECRET is not set: set it to the webhook secret of the GitHub App (its settings page, "Webhook secret")',
    );
  const port = env.PORT ? Number(env.PORT) : 3000;
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be a port number (got \`${env.PORT}\`)`);
  const githubTimeout = githubTimeoutMs(env);
  if (githubTimeout === null)
    problems.push(
      `FIXLOOP_GITHUB_TIMEOUT_SECONDS must be a number of seconds above 0 (got \`${env.FIXLOOP_GITHUB_TIMEOUT_SECONDS}\`)`,
    );
  if (env.WEBHOOK_PROXY_URL && !smeeClientInstalled()) {
    problems.push(
      "WEBHOOK_PROXY_URL is set but smee-client is not installed: `npm install --no-save smee-client` in fixloop's folder, or unset WEBHOOK_PROXY_URL (fixloop installs nothing on its own)",
    );
  }
  if (problems.length > 0) {
    const lines = problems.map((problem) => `  - ${problem}`).join('\n');
    throw new UsageError(`the App cannot start; set these in .env or the environment (see .env.example):\n${lines}`);
  }
  return {
    appId: appId as number,
    privateKey: privateKey as string,
    secret: env.WEBHOOK_SECRET as string,
    port,
    host: env.HOST || undefined,
    webhookPath: env.WEBHOOK_PATH || '/api/github/webhooks',
    webhookProxy: env.WEBHOOK_PROXY_URL || undefined,
    githubTimeoutMs: githubTimeout as number,
  };
}

function checkAppId(value: string | undefined, problems: string[]): number | null {
  if (!value) {
    problems.push(`APP_ID is not set: the App's id, from its settings page ("App ID"); ${REGISTER_HINT}`);
    return null;
  }
  const id = Number(value);
  if (Number.isInteger(id) && id > 0) return id;
  problems.push(`APP_ID must be the App's numeric id (got \`${value}\`)`);
  return null;
}

function checkPrivateKey(env: NodeJS.ProcessEnv, cwd: string, problems: string[]): string | null {
  if (env.PRIVATE_KEY) {
    const key = pemFromEnvironment(env.PRIVATE_KEY);
    if (isPrivateKey(key)) return key;
    problems.push(
      "PRIVATE_KEY is not a PEM private key: paste the whole .pem file the App's settings page gave you (newlines as \\n), or set PRIVATE_KEY_PATH to that file instead",
    );
    return null;
  }
  if (!env.PRIVATE_KEY_PATH) {
    problems.push(
      "neither PRIVATE_KEY nor PRIVATE_KEY_PATH is set: generate a private key on the App's settings page and set PRIVATE_KEY_PATH to the .pem file (or PRIVATE_KEY to its contents)",
    );
    return null;
  }
  const path = resolve(cwd, env.PRIVATE_KEY_PATH);
  const named = `\`${env.PRIVATE_KEY_PATH}\`${path === env.PRIVATE_KEY_PATH ? '' : ` (${path})`}`;
  const unreadable = fileProblem(path);
  if (unreadable === 'missing') {
    problems.push(
      `PRIVATE_KEY_PATH: no such file ${named}: save the private key generated on the App's settings page there, or point PRIVATE_KEY_PATH at it (or set PRIVATE_KEY to its contents)`,
    );
    return null;
  }
  if (unreadable) {
    problems.push(`PRIVATE_KEY_PATH: ${named} ${unreadable}`);
    return null;
  }
  const key = readFileSync(path, 'utf8');
  if (isPrivateKey(key)) return key;
  problems.push(`PRIVATE_KEY_PATH: ${named} is not a PEM private key (the .pem file from the App's settings page)`);
  return null;
}

/** null when the file is there and readable by this process; 'missing', or why it cannot be read. */
function fileProblem(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return 'is not a file';
    accessSync(path, constants.R_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    // In the container the key is read by the unprivileged user (uid 10001), not its owner on the host.
    if (code === 'EACCES')
      return `cannot be read by this user (uid ${process.getuid?.() ?? '?'}): make it readable to it, or pass the key inline in PRIVATE_KEY`;
    return `cannot be read (${code ?? (error as Error).message})`;
  }
}

/** As Probot reads PRIVATE_KEY: base64 of the PEM, or the PEM with its newlines written as `\n`. */
function pemFromEnvironment(value: string): string {
  const decoded = Buffer.from(value, 'base64').toString('base64') === value ? Buffer.from(value, 'base64').toString() : value;
  const pem = decoded.replace(/\\n/g, '\n');
  // A PEM pasted on one line (spaces for newlines): put its lines back, as Probot does.
  const oneLine = /^(-----BEGIN [A-Z ]+-----)\s*(.+?)\s*(-----END [A-Z ]+-----)\s*$/.exec(pem);
  return oneLine && !pem.includes('\n') ? `${oneLine[1]}\n${(oneLine[2] ?? '').replace(/\s+/g, '\n')}\n${oneLine[3]}\n` : pem;
}

function isPrivateKey(pem: string): boolean {
  if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(pem)) return false;
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

function smeeClientInstalled(): boolean {
  try {
    import.meta.resolve('smee-client');
    return true;
  } catch {
    return false;
  }
}
