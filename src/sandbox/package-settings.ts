// What package managers in the sandbox get of the operator's configuration: npm's and pip's effective
// registry, proxy and CA settings, written once per process into a folder fixloop owns and pointed
// at by the environment (NPM_CONFIG_USERCONFIG, PIP_CONFIG_FILE), the CA and proxy variables of the
// server's environment, and the CA files and local package sources they name, shown read-only.
// Never the operator's home, never a credential the operator did not name (package-auth-keys.ts).
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isSystemPath, isUnder, refusal, type BindGuard } from './bind-guard.ts';
import { npmConfigReads, readNpmConfig, renderNpmrc, type RenderedSettings } from './npm-settings.ts';
import { hasUrlCredentials, packageAuthKeysFrom, type PackageAuthKeys } from './package-auth-keys.ts';
import { localPaths, pipConfigReads, readPipConfig, renderPipConf } from './pip-settings.ts';
import { askOnce, realFile } from './tool-answers.ts';
import { fileToStart, which } from './toolchains.ts';

/** Variables passed from the server's environment when set; `path(s)`: the files they name are shown. */
const PASSED_VARIABLES: Record<string, 'path' | 'paths' | 'text'> = {
  NODE_EXTRA_CA_CERTS: 'path',
  SSL_CERT_FILE: 'path',
  SSL_CERT_DIR: 'path',
  REQUESTS_CA_BUNDLE: 'path',
  CURL_CA_BUNDLE: 'path',
  PIP_CERT: 'path',
  PIP_INDEX_URL: 'paths',
  PIP_EXTRA_INDEX_URL: 'paths',
  PIP_FIND_LINKS: 'paths',
  PIP_TRUSTED_HOST: 'text',
  PIP_NO_INDEX: 'text',
  PIP_PROXY: 'text',
  HTTP_PROXY: 'text',
  HTTPS_PROXY: 'text',
  NO_PROXY: 'text',
  ALL_PROXY: 'text',
  http_proxy: 'text',
  https_proxy: 'text',
  no_proxy: 'text',
  all_proxy: 'text',
};

export interface PackageSettings {
  /** fixloop's folder holding the generated `npmrc` and `pip.conf`, or null when there was nothing to write. */
  dir: string | null;
  /** Variables every command gets (NPM_CONFIG_USERCONFIG, PIP_CONFIG_FILE, the passed CA and proxy variables). */
  env: Record<string, string>;
  /** Host files and folders shown read-only: the folder above, the CA files and local package sources named. */
  readOnly: string[];
  npmKeys: string[];
  pipKeys: string[];
  /** Variables passed from the server's environment (names). */
  passed: string[];
  /** Settings and variables left out as credentials (names). */
  dropped: string[];
  /** Files the settings name that may not be shown, and why. */
  refused: Array<{ path: string; reason: string }>;
}

/** The CA and proxy variables of the server's environment a sandbox gets, and the files they name. */
export function passedEnvironment(
  env: NodeJS.ProcessEnv,
  auth: PackageAuthKeys,
): { env: Record<string, string>; paths: string[]; dropped: string[] } {
  const out = { env: {} as Record<string, string>, paths: [] as string[], dropped: [] as string[] };
  for (const [name, kind] of Object.entries(PASSED_VARIABLES)) {
    const value = env[name];
    if (!value) continue;
    if (hasUrlCredentials(value) && !auth.env.has(name)) {
      out.dropped.push(name);
      continue;
    }
    out.env[name] = value;
    if (kind === 'path') out.paths.push(value);
    if (kind === 'paths') out.paths.push(...localPaths(value));
  }
  return out;
}

/**
 * The server's environment for running the operator's npm and pip: the app's own secrets left out
 * (they need none of them, and a config file's `${VAR}` should not reach a key or a token of the app).
 */
function toolEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const secret = /^(FIXLOOP_|PRIVATE_KEY|WEBHOOK_SECRET$|GITHUB_TOKEN$|GH_TOKEN$|DATABASE_URL$|OPENAI_|ANTHROPIC_)|_API_KEY$/;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !secret.test(name)));
}

/**
 * The operator's pip (`pip3`, `pip`, else `python3 -m pip`) as the PATH finds it, run from `/`. A pyenv
 * shim is followed to the file it would run (pyenv's version selection, read without starting pyenv):
 * the shim's bash start costs seconds of every run on a loaded machine, and `pip config list` answers
 * the same from either.
 */
function operatorPip(env: NodeJS.ProcessEnv, guard: BindGuard): { file: string; args: string[] } | null {
  const host = { path: env.PATH ?? '', env, guard, cwd: '/' };
  const runnable = (name: string) => fileToStart(name, host);
  const pip = runnable('pip3') ?? runnable('pip');
  if (pip) return { file: pip, args: [] };
  const python = runnable('python3');
  return python ? { file: python, args: ['-m', 'pip'] } : null;
}

/**
 * fixloop's cache folder, where the tools' answers are kept for later processes: none until the
 * command line names it (each of its runs is a process of its own). A program using the library, or
 * the App's long-lived processes, keep them in memory only: nothing is written in a user's folders
 * that the caller did not ask for.
 */
let answersRoot: string | null = null;

export function keepToolAnswersIn(cacheRoot: string | null): void {
  answersRoot = cacheRoot;
}

/**
 * fixloop's folder for the generated files, named after their content: every process with the same
 * settings shares one (nothing piles up in /tmp when a process is killed), and a folder that is not
 * fixloop's user's own, private one (planted by someone else) is never used.
 */
function writeSettingsFolder(npmrc: RenderedSettings | null, pipConf: RenderedSettings | null): string {
  const files: Array<[string, string]> = [
    ...(npmrc ? [['npmrc', npmrc.text] as [string, string]] : []),
    ...(pipConf ? [['pip.conf', pipConf.text] as [string, string]] : []),
  ];
  const hash = createHash('sha256').update(JSON.stringify(files)).digest('hex').slice(0, 16);
  const uid = process.getuid?.() ?? 0;
  let dir = join(tmpdir(), `fixloop-package-settings-${uid}-${hash}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch {
    // There already: used only if it is ours and private (checked below).
  }
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (!stat || !stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0)
    dir = mkdtempSync(join(tmpdir(), 'fixloop-package-settings-'));
  for (const [name, text] of files) {
    const file = join(dir, name);
    if (existsSync(file) && readFileSync(file, 'utf8') === text) continue;
    // Written aside, then renamed: a command of another process never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, text, { mode: 0o600 });
    renameSync(partial, file);
  }
  return dir;
}

/** Of the files the settings name: those shown (outside the system, allowed by the guard) and the refused. */
function shownPaths(paths: string[], guard: BindGuard): Pick<PackageSettings, 'readOnly' | 'refused'> {
  const readOnly: string[] = [];
  const refused: PackageSettings['refused'] = [];
  for (const raw of new Set(paths.map((p) => resolve(p)))) {
    if (!existsSync(raw) || isSystemPath(raw) || readOnly.some((d) => isUnder(raw, d))) continue;
    const reason = refusal(raw, guard);
    if (reason === null) readOnly.push(raw);
    else refused.push({ path: raw, reason });
  }
  return { readOnly, refused };
}

function buildPackageSettings(env: NodeJS.ProcessEnv, guard: BindGuard): PackageSettings {
  const auth = packageAuthKeysFrom(env);
  const path = env.PATH ?? '';
  const npm = which('npm', path);
  const tools = toolEnvironment(env);
  // Each asked once for many processes where the command line keeps the answers (tool-answers.ts).
  const npmConfig = npm
    ? askOnce(
        answersRoot,
        { name: 'npm config list', file: npm, args: [], env: tools },
        (config) => npmConfigReads(realFile(npm), config),
        () => readNpmConfig(npm, tools),
      )
    : null;
  const npmrc = npmConfig ? renderNpmrc(npmConfig, auth, tools) : null;
  const pip = operatorPip(env, guard);
  const pipEntries = pip
    ? askOnce(
        answersRoot,
        { name: 'pip config list', file: pip.file, args: pip.args, env: tools },
        () => pipConfigReads(realFile(pip.file), tools),
        () => readPipConfig(pip, tools),
      )
    : null;
  const pipConf = pipEntries ? renderPipConf(pipEntries, auth) : null;
  const passed = passedEnvironment(env, auth);
  const dir = npmrc || pipConf ? writeSettingsFolder(npmrc, pipConf) : null;
  const generated: Record<string, string> = {};
  if (dir && npmrc) {
    // pnpm reads the lower-case spelling; npm either.
    generated.NPM_CONFIG_USERCONFIG = join(dir, 'npmrc');
    generated.npm_config_userconfig = join(dir, 'npmrc');
  }
  if (dir && pipConf) generated.PIP_CONFIG_FILE = join(dir, 'pip.conf');
  const shown = shownPaths([...(npmrc?.paths ?? []), ...(pipConf?.paths ?? []), ...passed.paths], guard);
  return {
    dir,
    env: { ...passed.env, ...(npmrc?.env ?? {}), ...generated },
    readOnly: [...(dir ? [dir] : []), ...shown.readOnly],
    npmKeys: npmrc?.kept ?? [],
    pipKeys: pipConf?.kept ?? [],
    passed: Object.keys(passed.env),
    dropped: [
      ...(npmrc?.dropped ?? []),
      ...(pipConf?.dropped.map((k) => `pip:${k}`) ?? []),
      ...passed.dropped.map((n) => `env:${n}`),
    ],
    refused: shown.refused,
  };
}

const cache = new Map<string, PackageSettings>();

/**
 * The package settings for sandboxes made from this server environment: read (by running the
 * operator's npm and pip) and written once per process and environment, then reused.
 */
export function packageSettingsFor(env: NodeJS.ProcessEnv, guard: BindGuard): PackageSettings {
  const key = JSON.stringify(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const cached = cache.get(key);
  if (cached) return cached;
  const settings = buildPackageSettings(env, guard);
  cache.set(key, settings);
  return settings;
}
