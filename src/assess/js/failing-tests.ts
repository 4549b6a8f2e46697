// Where each failing JavaScript or TypeScript test's own code is: the `it(…)` or `test(…)` call that
// bears its name (or a template title that makes it), in the file the runner named, else in the test
// files that declare it (mocha names no file). A JavaScript call names the lines of the test files on
// its stack (`testLines`), and these spans tell a failing test's call from a passing one's
// (../failing-test-callers.ts).
import type { TestCaseResult } from '../../core/test-report.ts';
import { JS_SOURCE, parseJs, type JsNode } from '../../core/js-tree.ts';
import { testDeclarations } from '../../core/js-test-calls.ts';
import type { EntrySources } from '../entry-sources.ts';
import type { FailingTestSpans, Span } from '../probe-language.ts';

/**
 * The test files of the failing tests: the ones the runner named, else those whose text holds a
 * failing test's name, else those that declare it through a template title (a test in a loop).
 */
export async function failingTestFiles(
  fixed: readonly TestCaseResult[],
  sources: Pick<EntrySources, 'read' | 'testFiles'>,
): Promise<string[]> {
  const named = new Set(fixed.flatMap((t) => (t.file && JS_SOURCE.test(t.file) ? [t.file] : [])));
  const unnamed = new Set(fixed.filter((t) => !t.file).map((t) => t.name));
  if (unnamed.size === 0) return [...named];
  const templated: Array<{ file: string; text: string }> = [];
  for (const file of await sources.testFiles()) {
    if (!JS_SOURCE.test(file)) continue;
    const text = (await sources.read(file)) ?? '';
    const found = [...unnamed].filter((name) => text.includes(name));
    if (found.length > 0) named.add(file);
    for (const name of found) unnamed.delete(name);
    if (text.includes('${')) templated.push({ file, text });
  }
  for (const { file, text } of templated) {
    if (unnamed.size === 0) break;
    const program = parseJs(file, text);
    if (program && testCallsNamed(program, unnamed).length > 0) named.add(file);
  }
  return [...named];
}

/** Where each failing JavaScript or TypeScript test's own code is, by file. */
export async function failingTestSpans(
  fixed: readonly TestCaseResult[],
  sources: Pick<EntrySources, 'read' | 'testFiles'>,
): Promise<FailingTestSpans> {
  const spans: FailingTestSpans = new Map();
  const names = new Set(fixed.map((t) => t.name));
  for (const file of await failingTestFiles(fixed, sources)) {
    const program = parseJs(file, (await sources.read(file)) ?? '');
    const found = program ? testCallsNamed(program, names) : [];
    spans.set(file, found.length > 0 ? found : null);
  }
  return spans;
}

/**
 * The spans of the test declarations whose title is one of `names`: a title written as one literal,
 * or as a template whose expressions stand for any text (`supports calc for ${property}`, a test
 * declared in a loop, is each of the names it makes).
 */
function testCallsNamed(program: JsNode, names: ReadonlySet<string>): Span[] {
  return testDeclarations(program)
    .filter(({ title }) => [...names].some((name) => title.test(name)))
    .map(({ call }): Span => [call.loc.start.line, call.loc.end.line]);
}
