// The operator's effective npm configuration, as the npm on the server's PATH reports it with the
// server's environment, and the part of it a sandbox gets: registries, proxies, CA and strict-ssl,
// written as an npmrc of fixloop's own. Inside the sandbox npm runs on fixloop's Node (whose global
// npmrc is another file) with a throw-away HOME, so nothing of this arrives unless handed over.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hasUrlCredentials, isNpmCredentialKey, type PackageAuthKeys } from './package-auth-keys.ts';

/** Registry, proxy and CA settings: carried when set. `@scope:registry` keys are carried too. */
export const NPM_CARRIED_KEYS = ['registry', 'proxy', 'https-proxy', 'noproxy', 'cafile', 'ca', 'strict-ssl'];

export interface NpmConfig {
  /** Effective values by key (`npm config list --json`). Protected keys (tokens) are absent. */
  values: Record<string, unknown>;
  /** The npmrc files that were read (user, global), where named credentials are looked up. */
  files: string[];
}

export interface RenderedSettings {
  /** The configuration file's text. */
  text: string;
  /** Keys written. */
  kept: string[];
  /** Keys left out as credentials. */
  dropped: string[];
  /** Host files or folders the settings name (a CA file, a local package source): shown read-only. */
  paths: string[];
  /** Variables for tools that read the same settings another way (Yarn 2+). */
  env: Record<string, string>;
}

/** Runs the operator's npm (`npm config list --json`; `npm config get` per key on an npm without it). */
export function readNpmConfig(npm: string, env: NodeJS.ProcessEnv): NpmConfig | null {
  // cwd `/`: no project's .npmrc (fixloop's own, or one planted in /tmp) counts.
  const run = (args: string[]) =>
    execFileSync(npm, args, {
      env,
      cwd: '/',
      encoding: 'utf8',
      timeout: 30_000,
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 16 * 1024 * 1024,
    });
  let values: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(run(['config', 'list', '--json']));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) values = parsed as Record<string, unknown>;
  } catch {
    values = null;
  }
  if (!values) {
    values = {};
    for (const key of [...NPM_CARRIED_KEYS, 'userconfig', 'globalconfig']) {
      try {
        const out = run(['config', 'get', key]).trim();
        values[key] = out === '' || out === 'null' || out === 'undefined' ? null : out;
      } catch {
        // A protected key (npm refuses to print it) or an npm that cannot run: left out.
      }
    }
    if (Object.keys(values).length === 0) return null;
  }
  const files = [values.userconfig, values.globalconfig].filter((f): f is string => typeof f === 'string' && f !== '');
  return { values, files };
}

/**
 * The files an answer of `readNpmConfig` came from: the user's and the global npmrc it names, npm's
 * own (`npmrc` at its package's root, beside `bin/`) and the project's at `/`, where npm is run.
 */
export function npmConfigReads(realNpm: string, config: NpmConfig): string[] {
  return [...config.files, join(dirname(dirname(realNpm)), 'npmrc'), '/.npmrc'];
}

/** `key = value` pairs of an npmrc, `${VAR}` expanded as npm does. */
export function parseNpmrc(text: string, env: NodeJS.ProcessEnv): Map<string, string> {
  const entries = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    let value = line.slice(eq + 1).trim();
    if (/^".*"$/.test(value)) {
      try {
        value = String(JSON.parse(value));
      } catch {
        value = value.slice(1, -1);
      }
    } else if (/^'.*'$/.test(value)) value = value.slice(1, -1);
    entries.set(
      key,
      value.replace(/\$\{([^}?]+)\??\}/g, (_, name: string) => env[name] ?? ''),
    );
  }
  return entries;
}

function readFiles(files: string[], env: NodeJS.ProcessEnv): Array<Map<string, string>> {
  return files.map((file) => {
    try {
      return parseNpmrc(readFileSync(file, 'utf8'), env);
    } catch {
      return new Map<string, string>();
    }
  });
}

/** A value as an npmrc line's right-hand side. */
function iniValue(value: string): string {
  return JSON.stringify(value);
}

function carriedLines(config: NpmConfig, auth: PackageAuthKeys, out: RenderedSettings): void {
  const scoped = Object.keys(config.values).filter((k) => /^@[^:/]+:registry$/.test(k));
  for (const key of [...NPM_CARRIED_KEYS, ...scoped]) {
    const value = config.values[key];
    if (value === null || value === undefined || auth.npm.has(key)) continue;
    if (key === 'ca') {
      const certs = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string' && v !== '');
      for (const cert of certs) out.text += `ca[]=${iniValue(cert)}\n`;
      if (certs.length > 0) out.kept.push(key);
      continue;
    }
    const text = Array.isArray(value) ? value.filter((v) => typeof v === 'string' && v !== '').join(',') : String(value);
    if (text === '') continue;
    if (hasUrlCredentials(text)) {
      out.dropped.push(key);
      continue;
    }
    out.text +=
      typeof value === 'boolean' || text === 'true' || text === 'false' ? `${key}=${text}\n` : `${key}=${iniValue(text)}\n`;
    out.kept.push(key);
    if (key === 'cafile') out.paths.push(text);
  }
}

/** The npmrc a sandbox gets: the carried keys, plus the credentials the operator named, nothing else. */
export function renderNpmrc(config: NpmConfig, auth: PackageAuthKeys, env: NodeJS.ProcessEnv): RenderedSettings {
  const out: RenderedSettings = {
    text: "# Written by fixloop: the operator's registry, proxy and CA settings (docs/security.md).\n",
    kept: [],
    dropped: [],
    paths: [],
    env: {},
  };
  carriedLines(config, auth, out);
  const files = readFiles(config.files, env);
  // Named keys: npm refuses to print protected ones, so they are read from the operator's npmrc
  // files (user before global), as npm would.
  for (const key of auth.npm) {
    const fromFiles = files.find((f) => f.has(key))?.get(key);
    const value = fromFiles ?? (typeof config.values[key] === 'string' ? (config.values[key] as string) : undefined);
    if (value === undefined || value === '') continue;
    out.text += `${key}=${iniValue(value)}\n`;
    out.kept.push(key);
  }
  for (const file of files)
    for (const key of file.keys())
      if (isNpmCredentialKey(key) && !auth.npm.has(key) && !out.dropped.includes(key)) out.dropped.push(key);
  // Yarn 2+ reads neither npmrc: the CA, proxies and strict-ssl go to it as variables (its registry
  // does not: a variable would override the repository's own .yarnrc.yml).
  const carried = (key: string) => (out.kept.includes(key) ? config.values[key] : undefined);
  if (typeof carried('cafile') === 'string') out.env.YARN_CA_FILE_PATH = carried('cafile') as string;
  if (typeof carried('proxy') === 'string') out.env.YARN_HTTP_PROXY = carried('proxy') as string;
  if (typeof carried('https-proxy') === 'string') out.env.YARN_HTTPS_PROXY = carried('https-proxy') as string;
  if (String(carried('strict-ssl')) === 'false') out.env.YARN_ENABLE_STRICT_SSL = 'false';
  return out;
}
