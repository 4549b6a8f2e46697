// The options a failing test is about: a word of its name that its test files pass as an object key
// (picomatch's "should respect nonegate opts" calls `scan(..., { nonegate: true })`). A fix for "option
// X is ignored" tests that option where the code decides (`if (!opts.nonegate && ...)`), and the name
// of an option the code never read so far is in no template's reach without the tests' words.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestCaseResult } from '../../core/test-report.ts';
import { namesInTests } from './localize/named-functions.ts';

const MAX_OPTIONS = 4;

export async function optionNamesInTests(
  root: string,
  failing: readonly TestCaseResult[],
  testFiles: readonly string[],
): Promise<string[]> {
  const words = namesInTests(failing.flatMap((t) => [t.id, t.name]));
  if (words.size === 0) return [];
  const named = [...new Set(failing.map((t) => t.file).filter((f): f is string => !!f))];
  const texts = await Promise.all(
    (named.length > 0 ? named : testFiles).map((f) => readFile(join(root, f), 'utf8').catch(() => '')),
  );
  const found: string[] = [];
  for (const word of [...words].sort()) {
    const asKey = new RegExp(`[{,]\\s*['"]?${word}['"]?\\s*:`);
    if (texts.some((text) => asKey.test(text))) found.push(word);
  }
  return found.slice(0, MAX_OPTIONS);
}
