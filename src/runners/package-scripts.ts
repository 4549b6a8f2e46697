// package.json's scripts, through which `npm test` reaches a runner (the registry follows them), read
// once for every stage: its text to the scripts whose commands are strings; none without a
// package.json, or with one npm would refuse too (then no script starts a runner).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The scripts of a package.json's text (none for no text, or one that is not a package.json). */
export function scriptsOfPackageJson(text: string | null): Record<string, string> {
  try {
    const scripts = (JSON.parse(text ?? '') as { scripts?: unknown }).scripts;
    if (!scripts || typeof scripts !== 'object') return {};
    return Object.fromEntries(Object.entries(scripts).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** The scripts of the package.json in `cwd`. */
export async function packageScripts(cwd: string): Promise<Record<string, string>> {
  return scriptsOfPackageJson(await readFile(join(cwd, 'package.json'), 'utf8').catch(() => null));
}

/** The same, synchronously: for a command's environment built before it starts. */
export function packageScriptsNow(cwd: string): Record<string, string> {
  try {
    return scriptsOfPackageJson(readFileSync(join(cwd, 'package.json'), 'utf8'));
  } catch {
    return {};
  }
}
