// A command that runs only the named tests through the runner's own selection: the repair engine
// rejects most candidates in a fraction of a suite run, and the replay observes each fixed test alone.
// Null when the runner is not recognised.
import type { TestCaseResult } from '../core/test-report.ts';

export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
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

function filterArguments(runner: Runner, failing: TestCaseResult[]): string | null {
  if (failing.length === 0) return null;
  switch (runner) {
    case 'pytest':
      return failing.every((t) => t.id.includes('::')) ? failing.map((t) => shellQuote(t.id)).join(' ') : null;
    case 'node-test':
      return `--test-name-pattern=${shellQuote(namePattern(failing))}`;
    case 'vitest':
    case 'jest':
      return `-t ${shellQuote(namePattern(failing))}`;
    case 'mocha':
      // mocha matches --grep against each test's full title (its suites' titles, then its own).
      return `--grep ${shellQuote(namePattern(failing))}`;
    default:
      return null;
  }
}

export function focusedTestCommand(command: string, failing: TestCaseResult[], packageScripts: Record<string, string> = {}): string | null {
  // Only a single simple command can take extra arguments at its end.
  if (/[;&|]|\$\(|`/.test(command.replace(/\|\|/g, ''))) return null;
  const direct = runnerOf(command);
  if (direct) {
    const args = filterArguments(direct, failing);
    return args ? `${command} ${args}` : null;
  }
  const npm = /^\s*npm\s+(?:run\s+)?(test|[\w:-]+)\s*$/.exec(command);
  const script = npm?.[1] ? packageScripts[npm[1]] : undefined;
  if (!script) return null;
  const args = filterArguments(runnerOf(script), failing);
  return args && !/[;&|]/.test(script) ? `${command} -- ${args}` : null;
}

