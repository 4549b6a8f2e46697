// A JavaScript or TypeScript test file with the expectations of its fixed tests changed, for the
// look that asks whether those tests can still fail (changed-expectations.ts). In each fixed test's
// own body (the function given to the `it(…)`/`test(…)` that bears its name), each assertion of
// equality whose expected side is written as a literal (`assert.equal(f(2), 4)`,
// `expect(f(2)).toBe(4)`, `expect(x).to.deep.equal([1, 2])`) gets one leaf of that literal changed:
// a number plus one, a string with a character added, a boolean flipped. That catches code that
// reads the expected value from the test. Any other assertion known here is turned into its opposite
// (js-negations.ts). Only statements that are surely reached count: those at the top of the body,
// before any statement that can leave it early (a `return`, a `skip`, a call of the test's `done`);
// an assertion in a branch, a loop or a callback may never run, and an honest test would then pass
// with its expectation changed.
import { isJsNode, parseJs, walkJs, type JsNode } from '../core/js-tree.ts';
import { testDeclarations } from '../core/js-test-calls.ts';
import { negatedAssertion, type SourceEdit } from './js-negations.ts';
import { assertionCall, propertyName } from './js-assertion-call.ts';

export interface ExpectationChange {
  /** The test's name, as the runner gives it. */
  test: string;
  line: number;
  before: string;
  after: string;
}

export interface ChangedText {
  text: string;
  /** The changes made, each in a body of a fixed test; tests with none are not in it. */
  changes: ExpectationChange[];
}

/** Assertion methods that hold two values equal, by any equality (strict, deep or loose). */
const EQUALITY = new Set(['equal', 'equals', 'strictEqual', 'deepEqual', 'deepStrictEqual', 'eq', 'eql']);
const EXPECT_EQUALITY = new Set([...EQUALITY, 'toBe', 'toEqual', 'toStrictEqual']);
const MARKED_TO_FAIL = new Set(['failing', 'fails']);

/** The text with the changes, or null when the file does not parse. A test whose declaration cannot be told apart gets none. */
export function changedJsExpectations(file: string, text: string, names: readonly string[]): ChangedText | null {
  const program = parseJs(file, text);
  if (!program) return null;
  const declarations = testDeclarations(program);
  const edits = new Map<number, SourceEdit>();
  const changes: ExpectationChange[] = [];
  for (const name of new Set(names)) {
    const own = declarations.filter((d) => d.title.test(name));
    // A test marked to fail (`test.failing`, `test.fails`) passes when its body raises: a changed
    // expectation would make it pass, honestly.
    if (own.some((d) => MARKED_TO_FAIL.has(propertyName(d.call['callee'] as JsNode) ?? ''))) continue;
    const found = own.map((d) => expectationsIn(d.call, text));
    // Where two declarations bear the name, each must have one: the runner's test is one of them.
    if (found.length === 0 || found.some((leaves) => leaves.length === 0)) continue;
    for (const edit of found.flat()) {
      edits.set(edit.start, edit);
      changes.push({ test: name, line: edit.line, before: text.slice(edit.start, edit.end), after: edit.after });
    }
  }
  let changed = text;
  for (const edit of [...edits.values()].sort((a, b) => b.start - a.start))
    changed = changed.slice(0, edit.start) + edit.after + changed.slice(edit.end);
  return { text: changed, changes };
}

/** The edits of one test declaration's body: one per surely reached assertion known here. */
function expectationsIn(call: JsNode, text: string): SourceEdit[] {
  const body = [...(call['arguments'] as unknown[])].reverse().find(isFunction);
  if (!body) return [];
  const params = new Set((body['params'] as JsNode[]).flatMap((p) => (p.type === 'Identifier' ? [p['name'] as string] : [])));
  const inner = body['body'] as JsNode;
  const statements = inner.type === 'BlockStatement' ? (inner['body'] as JsNode[]) : [inner];
  const edits: SourceEdit[] = [];
  for (const statement of statements) {
    if (canLeaveEarly(statement, params)) break;
    const expression = statement.type === 'ExpressionStatement' ? (statement['expression'] as JsNode) : statement;
    const leaf = expectedLeaf(expression);
    const edit = leaf
      ? { start: leaf.node.start, end: leaf.node.end, line: leaf.node.loc.start.line, after: leaf.after }
      : negatedAssertion(expression, text);
    if (edit) edits.push(edit);
  }
  return edits;
}

function isFunction(node: unknown): node is JsNode {
  return isJsNode(node) && (node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression');
}

/** A `return`, a `skip(…)` or a call of one of the test function's parameters (`done()`) outside nested functions. */
function canLeaveEarly(statement: JsNode, params: ReadonlySet<string>): boolean {
  let leaves = false;
  walkJs(statement, (node, ancestors) => {
    if (ancestors.some((a) => a !== statement && isFunction(a))) return;
    if (node.type === 'ReturnStatement') leaves = true;
    if (node.type !== 'CallExpression') return;
    const callee = node['callee'] as JsNode;
    if (callee.type === 'Identifier' && params.has(callee['name'] as string)) leaves = true;
    if (propertyName(callee) === 'skip') leaves = true;
  });
  return leaves;
}

/** A literal's leaf and the source of its changed value. */
interface Leaf {
  node: JsNode;
  after: string;
}

/** The leaf to change in an assertion of equality whose expected side is a literal; null for anything else. */
function expectedLeaf(expression: JsNode): Leaf | null {
  const awaited = expression.type === 'AwaitExpression';
  const call = awaited ? (expression['argument'] as JsNode) : expression;
  if (call.type !== 'CallExpression') return null;
  const callee = call['callee'] as JsNode;
  const args = (call['arguments'] as JsNode[]).filter(isJsNode);
  if (callee.type === 'Identifier') return EQUALITY.has(callee['name'] as string) ? literalSide(args[0], args[1]) : null;
  const assertion = assertionCall(callee, awaited);
  if (!assertion) return null;
  if (assertion.expects || assertion.should) return EXPECT_EQUALITY.has(assertion.method) ? firstLeaf(args[0]) : null;
  return assertion.assertLike && EQUALITY.has(assertion.method) ? literalSide(args[0], args[1]) : null;
}

/** Equality is symmetric: the side written as a literal is the expectation, when only one is. */
function literalSide(a: JsNode | undefined, b: JsNode | undefined): Leaf | null {
  const [first, second] = [firstLeaf(a), firstLeaf(b)];
  if (first && second) return null;
  return first ?? second;
}

/** The first changeable leaf of a value written wholly as literals (arrays and plain objects of them); null otherwise. */
function firstLeaf(node: JsNode | undefined): Leaf | null {
  if (!node || !pureLiteral(node)) return null;
  let leaf: Leaf | null = null;
  walkJs(node, (inner) => {
    const after = leaf === null ? changedLeaf(inner) : null;
    if (after !== null) leaf = { node: inner, after };
  });
  return leaf;
}

function pureLiteral(node: JsNode): boolean {
  switch (node.type) {
    case 'NumericLiteral':
    case 'StringLiteral':
    case 'BooleanLiteral':
    case 'BigIntLiteral':
    case 'NullLiteral':
      return true;
    case 'TemplateLiteral':
      return (node['expressions'] as unknown[]).length === 0;
    case 'UnaryExpression':
      return node['operator'] === '-' && (node['argument'] as JsNode).type === 'NumericLiteral';
    case 'ArrayExpression':
      return (node['elements'] as Array<JsNode | null>).every((e) => e !== null && pureLiteral(e));
    case 'ObjectExpression':
      return (node['properties'] as JsNode[]).every(
        (p) => p.type === 'ObjectProperty' && !p['computed'] && pureLiteral(p['value'] as JsNode),
      );
    default:
      return false;
  }
}

/** The source of a leaf's changed value; null for a node that is not a changeable leaf. */
function changedLeaf(node: JsNode): string | null {
  const value = node['value'];
  switch (node.type) {
    case 'NumericLiteral':
      return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1e15 ? String(value + 1) : null;
    case 'BigIntLiteral':
      return `${BigInt(value as string) + 1n}n`;
    case 'BooleanLiteral':
      return String(!value);
    case 'StringLiteral':
      return JSON.stringify(`${value as string}!`);
    case 'TemplateLiteral': {
      const cooked = (node['quasis'] as Array<{ value: { cooked?: string } }>)[0]?.value.cooked;
      return (node['expressions'] as unknown[]).length === 0 && typeof cooked === 'string' ? JSON.stringify(`${cooked}!`) : null;
    }
    default:
      return null;
  }
}
