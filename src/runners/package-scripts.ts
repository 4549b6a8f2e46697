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

/**
 * A call of a package.json script through its package manager: `npm t`, `npm test`, `npm run <name>`,
 * `npm run-script <name>`, `npm <name>`, and the same through pnpm or yarn; what follows the name is
 * `rest`. `run` says the call names the script after `run`, where every manager hands what follows
 * to the script as it is (pnpm's `test` alone takes `-t` for itself).
 */
const SCRIPT_CALL = /^\s*(npm|pnpm|yarn)\s+(?:(run(?:-script)?)\s+)?([\w:.-]+)(?=\s|$)(.*)$/s;

export interface ScriptCall {
  manager: 'npm' | 'pnpm' | 'yarn';
  name: string;
  /** What follows the script's name, trimmed. */
  rest: string;
  /** Named after `run`. */
  run: boolean;
}

/** The script call a command is, whatever follows its name; null for any other command. */
export function packageScriptCall(command: string): ScriptCall | null {
  const [, manager, run, name, rest] = SCRIPT_CALL.exec(command) ?? [];
  if (!manager || !name) return null;
  // npm's and pnpm's `t` is `test`; yarn runs a script named `t`.
  const script = name === 't' && !run && manager !== 'yarn' ? 'test' : name;
  return { manager: manager as ScriptCall['manager'], name: script, rest: (rest ?? '').trim(), run: Boolean(run) };
}

/** The name of the script a command runs through its package manager, if the command is only that. */
export function packageScriptName(command: string): string | null {
  const call = packageScriptCall(command);
  return call && call.rest === '' ? call.name : null;
}

/**
 * A script's call with what its package manager hands the script (a focused run's selection, which
 * the manager appends at the script's end): npm's after `--` (`npm test -- --grep x`); pnpm's and
 * yarn's after the name given to `run` (`pnpm run test --grep x`), where every version of theirs
 * hands it on as it is, never after `--`, which pnpm 10 hands on too. Null for any other command.
 */
export function packageScriptArguments(command: string): { name: string; args: string } | null {
  const call = packageScriptCall(command);
  if (!call || call.rest === '') return null;
  if (call.manager === 'npm')
    return /^--(?:\s|$)/.test(call.rest) ? { name: call.name, args: call.rest.replace(/^--\s*/, '') } : null;
  return call.run && !call.rest.startsWith('-- ') && call.rest !== '--' ? { name: call.name, args: call.rest } : null;
}

/** The call that hands `args` to the script `call` names, in its manager's form (packageScriptArguments reads it back). */
export function withScriptArguments(call: ScriptCall, command: string, args: string): string {
  return call.manager === 'npm' ? `${command} -- ${args}` : `${call.manager} run ${call.name} ${args}`;
}
