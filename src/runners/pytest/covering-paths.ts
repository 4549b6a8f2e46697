// A pytest command focused on node ids runs whatever else its own positional paths name too: `pytest
// tests tests/t.py::test_a` collects every test under `tests` beside the one asked for, so each of
// the repair engine's candidates and the assessment's rivals paid a whole suite run. The paths that
// hold a failing test's file are dropped; the ids select those tests, and nothing else was asked.
import type { TestCaseResult } from '../../core/test-report.ts';
import { nodeIdOf } from './subtest-id.ts';
import { asRelativePath, holdsAny, withoutCoveringWords } from '../covering-words.ts';

/** pytest's options that take no value: a path after one of them is a positional argument. */
const FLAGS = new Set([
  '-q',
  '-qq',
  '-v',
  '-vv',
  '-vvv',
  '-x',
  '-s',
  '-l',
  '--quiet',
  '--verbose',
  '--exitfirst',
  '--strict-markers',
]);

/**
 * The command without the positional words (after pytest itself) that are a failing test's file or
 * one of its folders. A word after an option that may take it as its value stays (`--rootdir tests`).
 */
export function withoutCoveringPaths(command: string, failing: TestCaseResult[]): string {
  const files = failing.map((t) => nodeIdOf(t.id).split('::')[0] ?? '').filter((f) => f !== '');
  if (files.length === 0) return command;
  return withoutCoveringWords(
    command,
    (word) => /(^|\/)(py\.test|pytest)$/.test(word),
    (word) => holdsAny(asRelativePath(word), files),
    (option) => FLAGS.has(option),
  );
}
