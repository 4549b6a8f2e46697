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

/** `npm t`, or `npm test` / `npm run <script>` / `npm run-script <script>` / `npm <script>`, with nothing after it. */
const NPM_CALL = /^\s*npm\s+(?:(t)|(?:run(?:-script)?\s+)?([\w:.-]+))\s*$/;

/** The name of the script a command runs through npm, if the command is only that (`npm t` is `test`). */
export function npmScriptName(command: string): string | null {
  const [, alias, name] = NPM_CALL.exec(command) ?? [];
  return alias ? 'test' : (name ?? null);
}

/**
 * A script's call with what npm hands the script after `--` (`npm test -- --grep x`: a focused run's
 * selection, which npm appends at the script's end); null for a command that is not such a call.
 */
export function npmScriptArguments(command: string): { name: string; args: string } | null {
  const at = command.search(/\s--(?:\s|$)/);
  const name = at === -1 ? null : npmScriptName(command.slice(0, at));
  return name === null ? null : { name, args: command.slice(at).replace(/^\s--\s*/, '') };
}
