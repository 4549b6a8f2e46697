// What of the host a sandbox may show besides the system: toolchain prefixes and package-manager
// files are found automatically (toolchains.ts, package-settings.ts), so one rule decides, in one
// place, what may never be shown however it was found: `/`, a home folder as a whole, fixloop's own
// data and keys, a folder that holds workspaces, or a folder that holds credentials.
import { existsSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { appDataDir, userDataDir } from '../core/data-dir.ts';

/** Visible read-only in every isolating sandbox already: nothing of these needs binding. */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'];
/** Inside the system but hidden by the bwrap backend: never shown again through a bind. */
export const MASKED_PATHS = ['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/ssh', '/etc/ssl/private'];

/** Entries that mark a folder as someone's private place (a home, a tool's credential store). */
const CREDENTIAL_ENTRIES = [
  '.ssh',
  '.gnupg',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.gitconfig',
  '.aws',
  '.docker',
  '.kube',
  '.env',
  'credentials',
  'credentials.toml',
];

export interface BindGuard {
  /** Home folders: never bound, nor any folder holding one. */
  homes: string[];
  /** fixloop's own secrets (data dir, private key, `.env`): never bound, nor anything inside or holding them. */
  secrets: string[];
  /** Folders where workspaces live: never bound as a whole, nor any folder holding them. */
  workspaceRoots: string[];
  /**
   * fixloop's own records in the user's data folder (`~/.local/share/fixloop`): never shown, but a
   * folder holding them may be (a `pip --user` prefix, `~/.local`), with them covered by an empty one.
   */
  covered: string[];
}

export function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** Under a system folder and not masked: already visible read-only, nothing to bind. */
export function isSystemPath(path: string): boolean {
  return SYSTEM_DIRS.some((d) => isUnder(path, d)) && !MASKED_PATHS.some((m) => isUnder(path, m));
}

/** The guard for the app whose environment this is (FIXLOOP_DATA_DIR or the user's data folder, PRIVATE_KEY_PATH, FIXLOOP_TMP_DIR, HOME). */
export function bindGuardFrom(env: NodeJS.ProcessEnv, cwd = process.cwd()): BindGuard {
  const homes = ['/root', '/home', homedir(), env.HOME].filter((h): h is string => !!h && isAbsolute(h)).map((h) => resolve(h));
  const secrets = [
    appDataDir(env, cwd),
    ...(env.PRIVATE_KEY_PATH ? [resolve(cwd, env.PRIVATE_KEY_PATH)] : []),
    // The app's own settings file (Probot reads APP_ID, PRIVATE_KEY, WEBHOOK_SECRET from it).
    join(cwd, '.env'),
  ];
  const workspaceRoots = [tmpdir(), ...(env.FIXLOOP_TMP_DIR ? [resolve(cwd, env.FIXLOOP_TMP_DIR)] : [])].map((p) => resolve(p));
  // The command line's runs and spend, in the user's data folder unless FIXLOOP_DATA_DIR is set.
  const covered = env.FIXLOOP_DATA_DIR ? [] : [userDataDir(env, cwd)];
  return { homes: [...new Set(homes)], secrets, workspaceRoots, covered };
}

function isHomeFolder(path: string, guard: BindGuard): boolean {
  // Anyone's home, not only fixloop's user's: /home/<name>.
  return guard.homes.some((h) => isUnder(h, path)) || (dirname(path) === '/home' && path !== '/home');
}

/** Why `path` may not be shown inside the sandbox, or null when it may (read-only). */
export function refusal(path: string, guard: BindGuard): string | null {
  if (!isAbsolute(path)) return 'not an absolute path';
  const p = resolve(path);
  if (p === '/') return 'the root folder';
  if (isHomeFolder(p, guard)) return 'a home folder as a whole';
  if (guard.secrets.some((s) => isUnder(p, s) || isUnder(s, p))) return "holds fixloop's own data or keys";
  if (guard.covered.some((c) => isUnder(p, c))) return "fixloop's own run records";
  if (MASKED_PATHS.some((m) => isUnder(p, m))) return 'a secret of the system';
  if (guard.workspaceRoots.some((w) => isUnder(w, p))) return 'holds the workspaces';
  const held = CREDENTIAL_ENTRIES.find((name) => existsSync(join(p, name)));
  if (held) return `holds credentials (${held})`;
  return null;
}
