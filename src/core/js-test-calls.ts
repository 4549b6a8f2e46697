// The test declarations of a JavaScript or TypeScript test file: the `it(…)`, `test(…)` and
// `specify(…)` calls (and their `.only`, `.skip`, `.each`… forms) and the names their title can make.
// The assessment finds a failing test's lines by them (src/assess/js/failing-tests.ts); the judge
// finds a fixed test's body by them (src/verify/js-expectations.ts).
import { isJsNode, walkJs, type JsNode } from './js-tree.ts';

/** The callees that declare a test. */
const TEST_CALLS = new Set(['it', 'test', 'specify']);

export interface TestDeclaration {
  /** The `it(…)` call. */
  call: JsNode;
  /** The names its title can make (a template's expressions stand for any text). */
  title: RegExp;
}

/** Every test declaration of the program whose title is a literal or a template. */
export function testDeclarations(program: JsNode): TestDeclaration[] {
  const found: TestDeclaration[] = [];
  walkJs(program, (node) => {
    if (node.type !== 'CallExpression' || !declaresTest(node['callee'])) return;
    const title = titlePattern((node['arguments'] as unknown[])[0]);
    if (title !== null) found.push({ call: node, title });
  });
  return found;
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
