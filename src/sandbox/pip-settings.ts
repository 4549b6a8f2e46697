// The operator's pip configuration (`pip config list`, run with the server's environment) and the
// part of it a sandbox gets: indexes, find-links, trusted hosts, proxy and CA, as a pip.conf of
// fixloop's own (PIP_CONFIG_FILE). The user's own pip.conf lives in a home the sandbox does not show.
import { execFileSync } from 'node:child_process';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasUrlCredentials, type PackageAuthKeys } from './package-auth-keys.ts';
import type { RenderedSettings } from './npm-settings.ts';

export const PIP_CARRIED_KEYS = ['index-url', 'extra-index-url', 'find-links', 'no-index', 'trusted-host', 'cert', 'proxy'];
/** Keys whose values name local files or folders (or file:// URLs) the sandbox must show. */
const PATH_KEYS = new Set(['cert', 'find-links', 'index-url', 'extra-index-url', 'client-cert']);
/** pip keys that are credentials: left out unless named (`pip:client-cert`). */
const CREDENTIAL_KEYS = new Set(['client-cert']);

export interface PipEntry {
  section: string;
  key: string;
  value: string;
}

/** Python's repr of a str, as `pip config list` prints values: quotes removed, escapes read. */
function unrepr(raw: string): string {
  const quoted = /^(['"])(.*)\1$/s.exec(raw);
  if (!quoted) return raw;
  return (quoted[2] ?? '').replace(/\\(n|t|\\|'|")/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/** `global.index-url='…'` lines. `:env:` entries (PIP_* variables) are left to the environment. */
export function parsePipConfigList(out: string): PipEntry[] {
  const entries: PipEntry[] = [];
  for (const line of out.split(/\r?\n/)) {
    const m = /^([A-Za-z0-9_:-]+)\.([A-Za-z0-9_-]+)=(.*)$/.exec(line.trim());
    if (!m || m[1] === ':env:') continue;
    entries.push({ section: m[1] ?? 'global', key: m[2] ?? '', value: unrepr(m[3] ?? '') });
  }
  return entries;
}

/** Runs the operator's pip (`pip3`, `pip`, else `python3 -m pip`) found on `path`. */
export function readPipConfig(pip: { file: string; args: string[] } | null, env: NodeJS.ProcessEnv): PipEntry[] | null {
  if (!pip) return null;
  try {
    const out = execFileSync(pip.file, [...pip.args, 'config', 'list'], {
      env,
      cwd: '/',
      encoding: 'utf8',
      timeout: 30_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return parsePipConfigList(out);
  } catch {
    return null;
  }
}

/**
 * Every file pip reads its configuration from (present or not), in pip's documented places:
 * PIP_CONFIG_FILE; the global files (each of XDG_CONFIG_DIRS, /etc, macOS's Library); the user's
 * (legacy ~/.pip, XDG_CONFIG_HOME, macOS's Library); the site's (the interpreter's prefix, a
 * virtualenv's). `realPip` is the pip (or python) file run, links followed: its prefix is two up.
 */
export function pipConfigReads(realPip: string, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
  const configDirs = (env.XDG_CONFIG_DIRS || '/etc/xdg').split(':').filter((d) => isAbsolute(d));
  const configHome = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, '.config');
  return [
    ...(env.PIP_CONFIG_FILE ? [env.PIP_CONFIG_FILE] : []),
    ...configDirs.map((d) => join(d, 'pip', 'pip.conf')),
    '/etc/pip.conf',
    '/Library/Application Support/pip/pip.conf',
    join(home, '.pip', 'pip.conf'),
    join(configHome, 'pip', 'pip.conf'),
    join(home, 'Library', 'Application Support', 'pip', 'pip.conf'),
    join(dirname(dirname(realPip)), 'pip.conf'),
    ...(env.VIRTUAL_ENV ? [join(env.VIRTUAL_ENV, 'pip.conf')] : []),
  ];
}

/** Local files and folders a value names (paths and file:// URLs; separated by spaces or lines). */
export function localPaths(value: string): string[] {
  const paths: string[] = [];
  for (const item of value.split(/\s+/).filter(Boolean)) {
    if (item.startsWith('file://')) {
      try {
        paths.push(fileURLToPath(item));
      } catch {
        // Not a local file URL.
      }
    } else if (isAbsolute(item)) paths.push(item);
  }
  return paths;
}

/** The pip.conf a sandbox gets: the carried keys by section, plus the credentials the operator named. */
export function renderPipConf(entries: PipEntry[], auth: PackageAuthKeys): RenderedSettings {
  const out: RenderedSettings = {
    text: "# Written by fixloop: the operator's index, proxy and CA settings (docs/security.md).\n",
    kept: [],
    dropped: [],
    paths: [],
    env: {},
  };
  const sections = new Map<string, string[]>();
  for (const { section, key, value } of entries) {
    const named = auth.pip.has(key);
    if (!named && (CREDENTIAL_KEYS.has(key) || hasUrlCredentials(value))) {
      if (!out.dropped.includes(key)) out.dropped.push(key);
      continue;
    }
    if (!named && !PIP_CARRIED_KEYS.includes(key)) continue;
    // Continuation lines of a multi-line value are indented, as configparser reads them.
    sections.set(section, [...(sections.get(section) ?? []), `${key} = ${value.split('\n').join('\n    ')}`]);
    if (!out.kept.includes(key)) out.kept.push(key);
    if (PATH_KEYS.has(key)) out.paths.push(...localPaths(value));
  }
  for (const [section, lines] of sections) out.text += `[${section}]\n${lines.join('\n')}\n`;
  return out;
}
