// Whose call a record is, when the failing tests cannot be run alone (a test command the runner
// cannot focus, as `npm run generate && node --test`): a call is the failing tests' when it came
// from one of them. pytest names the test itself (`site` is its id). A JavaScript call names the
// lines of the test files on its stack (`testLines`), which are told apart here by where each
// failing test's own code is: the `it(…)` or `test(…)` call that bears its name (or a template
// title that makes it), in the file the runner named, else in the test files that declare it
// (failingTestFiles: mocha names no file).
import type { TestCaseResult } from '../../core/test-report.ts';
import { isJsNode, JS_SOURCE, parseJs, walkJs, type JsNode } from '../../core/js-tree.ts';
import type { EntrySources } from './entry-sources.ts';
import type { ProbeRecord } from './probe-record.ts';

/** The callees that declare a test: `it('…')`, `test('…')`, `specify('…')`, and their `.only`, `.skip`… */
const TEST_CALLS = new Set(['it', 'test', 'specify']);

/** First and last line of a failing test's own code. */
type Span = readonly [number, number];

/** Test file → the spans of the failing tests in it; null when the file is theirs but no span was found (the whole file counts). */
export type FailingTestSpans = Map<string, Span[] | null>;

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
  const spans: Span[] = [];
  walkJs(program, (node) => {
    if (node.type !== 'CallExpression' || !declaresTest(node['callee'])) return;
    const title = titlePattern((node['arguments'] as unknown[])[0]);
    if (title !== null && [...names].some((name) => title.test(name))) spans.push([node.loc.start.line, node.loc.end.line]);
  });
  return spans;
}

function declaresTest(callee: unknown): boolean {
  if (!isJsNode(callee)) return false;
  if (callee.type === 'Identifier') return TEST_CALLS.has(callee['name'] as string);
  return callee.type === 'MemberExpression' && declaresTest(callee['object']);
}

/** The names a title can make, as a pattern; null when the title is not a literal or a template. */
function titlePattern(node: unknown): RegExp | null {
  if (!isJsNode(node)) return null;
  if (node.type === 'StringLiteral') return new RegExp(`^${escaped(node['value'] as string)}$`);
  if (node.type !== 'TemplateLiteral') return null;
  const parts = (node['quasis'] as JsNode[]).map((q) => (q['value'] as { cooked?: string | null }).cooked);
  if (parts.some((part) => typeof part !== 'string')) return null;
  return new RegExp(`^${parts.map((part) => escaped(part as string)).join('.*')}$`, 's');
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether a suite call came from a failing test: its pytest id is one of theirs; or a line of a test
 * file on its stack lies in a failing test's span; or, with no test file on its stack (Python, or
 * a runtime that did not know the test files), its first caller is in a failing test's file.
 */
export function fromFailingTests(fixed: readonly TestCaseResult[], spans: FailingTestSpans): (record: ProbeRecord) => boolean {
  const ids = new Set(fixed.map((t) => t.id));
  const files = new Set(fixed.flatMap((t) => (t.file ? [t.file] : [])));
  const inFailingTest = (at: string) => {
    const match = /^(.*):(\d+)$/.exec(at);
    if (!match) return false;
    const found = spans.get(match[1] ?? '');
    const line = Number(match[2]);
    return found === null || (found !== undefined && found.some(([first, last]) => line >= first && line <= last));
  };
  return (record) => {
    if (record.site === undefined) return false;
    if (ids.has(record.site)) return true;
    if (record.testLines && record.testLines.length > 0) return record.testLines.some(inFailingTest);
    return files.has(record.site.replace(/:\d+$/, '').split('::')[0] ?? '');
  };
}
