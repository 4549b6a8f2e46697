// What fixloop knows about one check tool (a linter, a formatter, a type checker), in one value: how to
// recognise a command that runs it, how to read its diagnostics, how it fixes what it reports, which
// files configure it and which comments silence it. One file per tool in this folder, listed in
// registry.ts; the gate, the judge and the `fixers` engine ask the registry, never a tool by name.
import type { Diagnostic } from '../core/check-result.ts';

/** How a tool fixes what it reports. */
export interface Fixer {
  /** Where its program is found: the repository's `node_modules/.bin`, or the user's PATH. */
  from: 'node_modules' | 'path';
  program: string;
  /** The arguments that fix these files (the tool's own diagnostics on them, to choose a subcommand). */
  args(files: readonly string[], diagnostics: readonly Diagnostic[]): string[];
  /** The check's own command line made the fixer (`prettier --check src` → `prettier --write src`); null when it cannot be. */
  fromCheck(command: string): string | null;
}

/** What configures a tool: a change to it is no fix of what the tool reports. */
export interface ToolConfiguration {
  /** Files that are the tool's configuration, or tell it what to ignore. */
  files: RegExp;
  /** Sections of shared INI-like files (`pyproject.toml`, `setup.cfg`, `tox.ini`) that configure it, by file name. */
  sections: Readonly<Record<string, RegExp>>;
  /** package.json keys that configure it. */
  packageKeys: readonly string[];
}

export interface CheckTool {
  /** Its name in diagnostics and reports. */
  id: string;
  /** Whether a command line runs the tool itself (its program named as a word). */
  startedBy(command: string): boolean;
  /** Its diagnostics in a command's output; none when the output holds none of its lines. `cwd`: the command's folder, to make paths relative. */
  parse(output: string, cwd: string): Diagnostic[];
  /** Null: nothing fixes what it reports but a change to the code (a type checker). */
  fixer: Fixer | null;
  configuration: ToolConfiguration;
  /** A comment that silences it in the code: one that a patch adds is no fix. */
  silencers: RegExp;
}

/** Whether `command` names `program` as a word: `eslint src`, `npx eslint`, `./node_modules/.bin/eslint`, `python -m black`. */
export function namesProgram(command: string, ...programs: string[]): boolean {
  return programs.some((program) =>
    new RegExp(`(^|[\\s/;&|(])${program.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}(?=$|[\\s;&|)])`).test(command),
  );
}

/** A path as the tool printed it, relative to the repository root (`cwd`): `./a.py`, `/work/x/src/a.js` → `a.py`, `src/a.js`. */
export function repositoryPath(file: string, cwd: string): string {
  const root = cwd.replace(/\/+$/, '');
  let path = file.trim();
  if (root && path.startsWith(`${root}/`)) path = path.slice(root.length + 1);
  return path.replace(/^(\.\/)+/, '');
}

/** The same command line with `flags` removed (the words themselves, anywhere). */
export function withoutFlags(command: string, flags: readonly string[]): string {
  const words = command.split(/(\s+)/);
  return words
    .filter((word) => !flags.includes(word))
    .join('')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** The command line with `inserted` right after the first word that is `program` (or ends in `/program`). */
export function afterProgram(command: string, program: string, inserted: string): string | null {
  const match = new RegExp(`(^|[\\s/])${program}(?=$|\\s)`).exec(command);
  if (!match) return null;
  const at = match.index + match[0].length;
  return `${command.slice(0, at)} ${inserted}${command.slice(at)}`;
}
