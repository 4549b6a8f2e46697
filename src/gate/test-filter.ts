// A command that runs only the named tests through the runner's own selection: the repair engine
// rejects most candidates in a fraction of a suite run, and the replay observes each fixed test alone.
// Null when the runner is not recognised.
import type { TestCaseResult } from '../core/test-report.ts';

export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

function escapeRegExp(value: string): string {
  // Control characters as `\xHH`: a test named after a NUL byte (ufo's `\0javascript:` cases) cannot
  // be passed to a process at all, and the runners read the pattern as a JavaScript RegExp.
  return value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/\p{Cc}/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** An unanchored alternation of the failing tests' own names: runners match it against full names. */
function namePattern(failing: TestCaseResult[]): string {
  return [...new Set(failing.map((t) => escapeRegExp(t.name)))].sort().join('|');
}

export type Runner = 'pytest' | 'node-test' | 'vitest' | 'jest' | 'mocha' | null;

function runnerOf(command: string): Runner {
  if (/(^|[\s;&|/])(python3?\s+-m\s+)?pytest\b/.test(command)) return 'pytest';
  if (/(^|[\s;&|/])node\b[^;&|]*\s--test\b/.test(command)) return 'node-test';
  if (/(^|[\s;&|/])vitest\b/.test(command)) return 'vitest';
  if (/(^|[\s;&|/])jest\b/.test(command)) return 'jest';
  if (/(^|[\s;&|/])_?mocha\b/.test(command)) return 'mocha';
  return null;
}

/** The runner a test command starts, directly or through `npm test` / `npm run <script>`. */
export function testRunnerOf(command: string, packageScripts: Record<string, string> = {}): Runner {
  const direct = runnerOf(command);
  if (direct) return direct;
  const npm = /^\s*npm\s+(?:run\s+)?(test|[\w:-]+)\s*$/.exec(command);
  const script = npm?.[1] ? packageScripts[npm[1]] : undefined;
  return script ? runnerOf(script) : null;
}

/**
 * The failing tests' files as the runner's positional arguments, when every failing test names its
 * file: jest takes regular expressions of paths, vitest substrings, node's runner the files. Null
 * where the runner cannot select files this way (mocha's positional files replace its configured spec).
 */
function fileArguments(runner: Runner, failing: TestCaseResult[]): string | null {
  // pytest's ids name their files already.
  if (runner === 'pytest') return '';
  const files = [...new Set(failing.map((t) => t.file))];
  if (files.some((f) => !f)) return null;
  const paths = (files as string[]).sort();
  switch (runner) {
    case 'jest':
      return paths.map((f) => shellQuote(escapeRegExp(f))).join(' ');
    case 'vitest':
    case 'node-test':
      return paths.map((f) => shellQuote(f)).join(' ');
    default:
      return null;
  }
}

function filterArguments(runner: Runner, failing: TestCaseResult[], withFiles: boolean): string | null {
  if (failing.length === 0) return null;
  const files = withFiles ? fileArguments(runner, failing) : '';
  if (files === null) return null;
  const before = files ? `${files} ` : '';
  switch (runner) {
    case 'pytest':
      return failing.every((t) => t.id.includes('::')) ? failing.map((t) => shellQuote(t.id)).join(' ') : null;
    case 'node-test':
      return `${before}--test-name-pattern=${shellQuote(namePattern(failing))}`;
    case 'vitest':
    case 'jest':
      return `${before}-t ${shellQuote(namePattern(failing))}`;
    case 'mocha':
      // mocha matches --grep against each test's full title (its suites' titles, then its own).
      return `--grep ${shellQuote(namePattern(failing))}`;
    default:
      return null;
  }
}

export interface FocusOptions {
  /** Also select the failing tests' files (null where the runner or the report cannot). */
  withFiles?: boolean;
}

export function focusedTestCommand(command: string, failing: TestCaseResult[], packageScripts: Record<string, string> = {}, options: FocusOptions = {}): string | null {
  const withFiles = options.withFiles ?? false;
  // Only a single simple command can take extra arguments at its end.
  if (/[;&|]|\$\(|`/.test(command.replace(/\|\|/g, ''))) return null;
  const direct = runnerOf(command);
  if (direct) {
    const args = filterArguments(direct, failing, withFiles);
    return args ? passable(`${command} ${args}`) : null;
  }
  const npm = /^\s*npm\s+(?:run\s+)?(test|[\w:-]+)\s*$/.exec(command);
  const script = npm?.[1] ? packageScripts[npm[1]] : undefined;
  if (!script) return null;
  const args = filterArguments(runnerOf(script), failing, withFiles);
  return args && !/[;&|]/.test(script) ? passable(`${command} -- ${args}`) : null;
}

/** A command a process can be given: none holds a NUL byte (a pytest id could still carry one). */
function passable(command: string): string | null {
  return command.includes('\0') ? null : command;
}

