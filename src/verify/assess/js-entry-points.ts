// Where the failing tests of a JavaScript or TypeScript project enter the program: the repository's
// own modules their files import or require, and the modules those import in turn (two levels: an
// `index.js` that re-exports `lib/x.js`, which takes its functions from `lib/x/y.js`), resolved as
// localization resolves them (src/core/imported-files.ts); in those, the functions the test files
// call by name. A test file is the one the runner named, else a test file that declares the failing
// test (failing-test-callers.ts: mocha names no file).
import type { TestCaseResult } from '../../core/test-report.ts';
import { isJsNode, JS_SOURCE, parseJs, walkJs, type JsNode } from '../../core/js-tree.ts';
import type { EntrySources } from './entry-sources.ts';
import { failingTestFiles } from './failing-test-callers.ts';
import { namedFunctions } from './js-probe-functions.ts';

/**
 * How far imports are followed from the test files: a package's entry, the module it re-exports, and
 * the one that module takes the function from (js-yaml: index.js → lib/js-yaml.js → lib/js-yaml/dumper.js).
 */
const LEVELS = 3;

/** Path → the first lines of the functions the failing tests call there. */
export async function jsEntryPoints(fixed: readonly TestCaseResult[], sources: EntrySources): Promise<Map<string, Set<number>>> {
  const called = new Set<string>();
  const testFiles = await failingTestFiles(fixed, sources);
  for (const file of testFiles) {
    const program = parseJs(file, (await sources.read(file)) ?? '');
    if (program) for (const name of calledNames(program)) called.add(name);
  }
  const entries = new Map<string, Set<number>>();
  if (called.size === 0) return entries;
  for (const path of await sources.imported(testFiles, LEVELS)) {
    if (!JS_SOURCE.test(path)) continue;
    const program = parseJs(path, (await sources.read(path)) ?? '');
    if (!program) continue;
    const lines = new Set(
      namedFunctions(program)
        .filter((fn) => called.has(fn.qualifiedName) || called.has(fn.qualifiedName.split('.').at(-1) ?? ''))
        .map((fn) => fn.node.loc.start.line),
    );
    if (lines.size > 0) entries.set(path, lines);
  }
  return entries;
}

/** The names the program calls (`f()`, `x.f()`). */
function calledNames(program: JsNode): string[] {
  const called: string[] = [];
  walkJs(program, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = node['callee'];
    if (!isJsNode(callee)) return;
    if (callee.type === 'Identifier') called.push(callee['name'] as string);
    else if (callee.type === 'MemberExpression' && callee['computed'] !== true && isJsNode(callee['property']))
      called.push(callee['property']['name'] as string);
  });
  return called;
}
