// The PATH the user's shell had: what a repository's commands resolve their tools on (docs/design.md §1.4).
// Started through npm (`npx fixloop`, `npm exec`, an npm script), fixloop's own PATH has npm's
// additions in front (@npmcli/run-script's set-path.js): the `node_modules/.bin` of fixloop's install
// and of every folder above it, which hold fixloop's bundled Node 24 (the `node` package), and npm's
// node-gyp-bin. bin/fixloop.js also hands an older Node over to that bundled Node. None of these are
// the user's: a test verified on fixloop's Node proves nothing about the user's. They are dropped
// here, the rest kept in its order; every sandbox backend and the toolchain report read the PATH from here.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where fixloop itself is installed, and the Node running it. */
export interface OwnInstall {
  /** fixloop's package folder (a checkout, or `…/node_modules/fixloop`). */
  root: string;
  /** The Node running fixloop (`process.execPath`). */
  execPath: string;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** fixloop's package folder: the nearest package.json named `fixloop` above this file (src/ or dist/). */
function packageRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'fixloop') return dir;
    } catch {
      // No manifest here: look higher.
    }
  }
  return resolve(here, '..', '..');
}

let own: OwnInstall | null = null;

export function ownInstall(): OwnInstall {
  own ??= { root: packageRoot(), execPath: process.execPath };
  return own;
}

/**
 * The `node_modules` folders npm puts on PATH for fixloop: its root's and every one above it, as
 * written and as resolved (a checkout's node_modules may be a link to another checkout's).
 */
function ownModuleFolders(root: string): string[] {
  const folders: string[] = [];
  for (let dir = root; ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    folders.push(modules);
    if (existsSync(modules)) folders.push(realOrSelf(modules));
    if (dirname(dir) === dir) break;
  }
  return [...new Set(folders)];
}

/** The folders of fixloop's bundled Node (the `node` package beside it) when that Node runs fixloop, else none. */
function bundledNodeFolders(execPath: string, modules: string[]): string[] {
  const real = realOrSelf(execPath);
  const bundled = modules.some((m) => isUnder(real, join(m, 'node')) || isUnder(execPath, join(m, 'node')));
  return bundled ? [...new Set([dirname(execPath), dirname(real)])] : [];
}

/** npm's `node-gyp-bin` (@npmcli/run-script adds it to every script's PATH). */
function isNpmGypBin(entry: string): boolean {
  return basename(entry) === 'node-gyp-bin' && /[\\/](@npmcli[\\/]run-script|npm)[\\/]/.test(entry);
}

/** Why a PATH entry is fixloop's and not the user's, or null when it is the user's. */
export function ownEntry(entry: string, install: OwnInstall = ownInstall()): string | null {
  if (!isAbsolute(entry)) return null;
  const modules = ownModuleFolders(install.root);
  const path = resolve(entry);
  if (isNpmGypBin(path)) return "npm's node-gyp-bin";
  const real = realOrSelf(path);
  if (modules.some((m) => path === join(m, '.bin') || real === join(m, '.bin'))) return "fixloop's node_modules/.bin";
  if (bundledNodeFolders(install.execPath, modules).some((d) => path === d || real === d)) return "fixloop's bundled Node";
  return null;
}

const cache = new Map<string, string>();

/** `path` without fixloop's own install folders, the rest in its order (`''` for none). */
export function userPath(path: string | undefined, install: OwnInstall = ownInstall()): string {
  const key = `${install.root}\0${install.execPath}\0${path ?? ''}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const kept = (path ?? '').split(delimiter).filter((entry) => entry !== '' && ownEntry(entry, install) === null);
  const result = kept.join(delimiter);
  cache.set(key, result);
  return result;
}

/** The environment with its PATH made the user's: what sandboxes are made from. */
export function withUserPath<T extends Record<string, string | undefined>>(env: T, install: OwnInstall = ownInstall()): T {
  return { ...env, PATH: userPath(env.PATH, install) };
}
