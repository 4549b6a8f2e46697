// A `node --test` command focused on the failing tests' files runs whatever its own positional
// arguments name too: `node --test --test-name-pattern=x test/off.test.js "test/**/*.test.js"`
// starts a process for every file the glob matches beside the one asked for, so each of the repair
// engine's candidates and the assessment's rivals paid nearly a whole suite run. The arguments
// that cover a failing test's file (the file, a folder it is in, a glob that matches it) are
// dropped when the files are named; without the files they stay, or node would fall back to its
// own default patterns, another set of files.
import { matchesGlob } from 'node:path';
import type { TestCaseResult } from '../../core/test-report.ts';
import { failingFiles } from '../test-name-pattern.ts';
import { asRelativePath, holdsAny, withoutCoveringWords } from '../covering-words.ts';
import { isNodeFlag } from './node-flags.ts';

/**
 * The command without the positional words after `node … --test` that cover a failing test's file,
 * when `withFiles` names those files; else the command as it is. A word after an option that may
 * take it as its value stays (`--import ./setup.js`).
 */
export function withoutCoveringArguments(command: string, failing: TestCaseResult[], withFiles: boolean): string {
  const files = withFiles ? failingFiles(failing) : null;
  if (!files || files.length === 0) return command;
  return withoutCoveringWords(
    command,
    (word) => word === '--test',
    (word) => covers(unquoted(word), files),
    isNodeFlag,
  );
}

/** The file, a folder it is in (`.` holds them all), or a glob that matches it. */
function covers(argument: string, files: readonly string[]): boolean {
  const path = asRelativePath(argument);
  return path === '.' || holdsAny(path, files) || (path !== '' && files.some((file) => matchesGlob(file, path)));
}

function unquoted(word: string): string {
  const quote = word[0];
  return (quote === '"' || quote === "'") && word.endsWith(quote) && word.length > 1 ? word.slice(1, -1) : word;
}
