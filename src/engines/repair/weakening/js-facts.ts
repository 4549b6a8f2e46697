// The weakening rules' facts of a JavaScript/TypeScript file, from the parser the templates and the
// judge use (src/core/js-parse.ts): its throws, its call statements, and the condition that holds a
// changed range, with what that condition guards.
import { childrenOf, isJsNode, type JsNode, parseJs, walkJs, WITH_TYPES } from '../../../core/js-tree.ts';
import type { Cond } from './condition.ts';
import type { ChangedCondition, ChangedRange, SiteFacts } from './site-facts.ts';

const TESTED: Record<string, string> = {
  IfStatement: 'if',
  WhileStatement: 'while',
  DoWhileStatement: 'do … while',
  ForStatement: 'for',
  ConditionalExpression: '?:',
};
const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassMethod',
  'ObjectMethod',
  'ClassPrivateMethod',
]);
const ERROR_NAME = /(?:Error|Exception)$/;

const squeeze = (s: string) => s.replace(/\s+/g, ' ').trim();
const short = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}…` : s);

/** The facts of one version of a file; null when it does not parse. */
export function jsFacts(file: string, source: string, range: ChangedRange): SiteFacts | null {
  const program = parseJs(file, source);
  if (!program) return null;
  const text = (n: JsNode) => source.slice(n.start, n.end);
  const facts: SiteFacts = { throws: [], calls: [], condition: null };
  let best: JsNode | null = null;
  walkJs(
    program,
    (node) => {
      if (node.type === 'ThrowStatement') facts.throws.push(short(squeeze(text(node))));
      const expression = node.expression;
      if (
        node.type === 'ExpressionStatement' &&
        isJsNode(expression) &&
        (expression.type === 'CallExpression' || expression.type === 'AwaitExpression')
      )
        facts.calls.push(squeeze(text(expression)));
      const test = node.test;
      if (
        TESTED[node.type] &&
        isJsNode(test) &&
        test.start <= range.start &&
        range.end <= test.end &&
        (!best || node.start >= best.start)
      )
        best = node;
    },
    WITH_TYPES,
  );
  facts.condition = best ? changedCondition(best, source) : null;
  return facts;
}

function changedCondition(node: JsNode, source: string): ChangedCondition {
  const test = node.test as JsNode;
  const statement = TESTED[node.type] ?? node.type;
  const condition: ChangedCondition = { start: test.start, statement, test: toCond(test, source) };
  if (node.type !== 'IfStatement') return condition;
  const whenTrue = isJsNode(node.consequent) ? checkIn(node.consequent, source) : null;
  const whenFalse = isJsNode(node.alternate) ? checkIn(node.alternate, source) : null;
  if (whenTrue) condition.guards = { check: whenTrue, firesWhen: true };
  else if (whenFalse) condition.guards = { check: whenFalse, firesWhen: false };
  return condition;
}

/** A boolean expression as the shared model: `&&`, `||`, `!`, `true`/`false`, and the rest as atoms. */
export function toCond(node: JsNode, source: string): Cond {
  const raw = source.slice(node.start, node.end);
  const { left, right, argument } = node;
  if (
    node.type === 'LogicalExpression' &&
    (node.operator === '&&' || node.operator === '||') &&
    isJsNode(left) &&
    isJsNode(right)
  ) {
    return { kind: node.operator === '&&' ? 'and' : 'or', items: [toCond(left, source), toCond(right, source)], text: raw };
  }
  if (node.type === 'UnaryExpression' && node.operator === '!' && isJsNode(argument))
    return { kind: 'not', item: toCond(argument, source), text: raw };
  if (node.type === 'BooleanLiteral') return { kind: 'const', value: node.value === true, text: raw };
  if ((node.type === 'TSAsExpression' || node.type === 'TSNonNullExpression') && isJsNode(node.expression))
    return toCond(node.expression, source);
  return { kind: 'atom', key: raw.replace(/\s+/g, ''), text: squeeze(raw) };
}

/** The message of an error made with a string (`new RangeError('Invalid value')`), else the text. */
function errorWords(node: JsNode, source: string): string {
  const args = node.arguments;
  const first = Array.isArray(args) ? (args[0] as unknown) : undefined;
  if (isJsNode(first) && first.type === 'StringLiteral') return `"${String(first.value)}"`;
  if (isJsNode(first) && first.type === 'TemplateLiteral') return `"${short(source.slice(first.start + 1, first.end - 1))}"`;
  return `\`${short(squeeze(source.slice(node.start, node.end)))}\``;
}

const isErrorMade = (n: unknown): boolean =>
  isJsNode(n) &&
  (n.type === 'NewExpression' || n.type === 'CallExpression') &&
  isJsNode(n.callee) &&
  n.callee.type === 'Identifier' &&
  ERROR_NAME.test(String(n.callee.name));
const calleeName = (n: JsNode) =>
  isJsNode(n.callee)
    ? n.callee.type === 'Identifier'
      ? String(n.callee.name)
      : isJsNode(n.callee.property)
        ? String(n.callee.property.name)
        : ''
    : '';

/** `reject(…)`, `Promise.reject(…)`, or a callback given an error made on the spot (`done(new Error(…))`). */
function reportsError(call: JsNode): boolean {
  const args: unknown[] = Array.isArray(call.arguments) ? (call.arguments as unknown[]) : [];
  return calleeName(call) === 'reject' || args.some((a) => isErrorMade(a));
}

/**
 * What a branch does that makes it a check, in words; null when it is not one. A check throws,
 * returns an error (`return new Error(…)`, `return Promise.reject(…)`), or reports one (`reject(…)`,
 * a callback given `new Error(…)`). Nested functions are not the branch's own code.
 */
function checkIn(branch: JsNode, source: string): string | null {
  let found: string | null = null;
  const visit = (node: JsNode) => {
    if (found || FUNCTIONS.has(node.type)) return;
    const arg = node.argument;
    if (node.type === 'ThrowStatement' && isJsNode(arg))
      found = `throws ${isErrorMade(arg) ? errorWords(arg, source) : `\`${short(squeeze(source.slice(arg.start, arg.end)))}\``}`;
    else if (node.type === 'ReturnStatement' && isJsNode(arg) && isErrorMade(arg))
      found = `returns the error ${errorWords(arg, source)}`;
    else if (node.type === 'CallExpression' && reportsError(node))
      found = `reports the error \`${short(squeeze(source.slice(node.start, node.end)))}\``;
    if (found) return;
    for (const child of childrenOf(node, WITH_TYPES)) visit(child);
  };
  visit(branch);
  return found;
}
