// Two things a guard inside the test process cannot tell from a fix, in added JavaScript or
// TypeScript (docs/design.md §3.2.3): code that reads the test runner's environment variables
// (`NODE_TEST_CONTEXT`, `JEST_WORKER_ID`, `VITEST`, …) can be right only under test; a `valueOf`,
// `Symbol.toPrimitive` or `equals` that answers a constant, or never reads the other operand, makes
// a value that compares equal to anything. The variables are the runners' own (src/runners/).
import { GLOBAL } from '../core/js-references.ts';
import { isJsNode, walkJs, type JsNode } from '../core/js-tree.ts';
import type { TamperRule } from './tamper-hit.ts';

export interface ValueRef {
  module: string;
  path: string[];
}

export type ValueReport = (node: JsNode, rule: TamperRule, what: string) => void;
export type ValueResolve = (node: unknown) => ValueRef | null;

/** Methods that turn a value into a primitive: a constant answer makes it `==` that constant. */
const PRIMITIVE = new Set(['valueOf', 'Symbol.toPrimitive']);
/** Methods that compare with another value (jest's and vitest's matchers ask `asymmetricMatch`). */
const COMPARING = new Set(['equals', 'isEqual', 'asymmetricMatch', 'compareTo']);
const FUNCTION = /^(FunctionExpression|ArrowFunctionExpression)$/;

const isEnv = (ref: ValueRef | null): ref is ValueRef =>
  ref !== null && ref.module === GLOBAL && ref.path[0] === 'process' && ref.path[1] === 'env';

/** Reads of the runners' variables, by name, and strings naming them in a file that reads the environment. */
export function runnerVariableHits(program: JsNode, env: readonly RegExp[], resolve: ValueResolve, report: ValueReport): void {
  if (env.length === 0) return;
  const names = (name: string) => env.some((p) => p.test(name));
  const strings: Array<[JsNode, string]> = [];
  const covered = new Set<JsNode>();
  let readsEnv = false;
  walkJs(program, (node) => {
    if (covered.has(node)) return;
    if (/MemberExpression$/.test(node.type)) {
      const ref = resolve(node);
      if (!isEnv(ref)) return;
      readsEnv = true;
      const name = ref.path[2];
      if (ref.path.length === 3 && name !== undefined && names(name))
        report(node, 'detects-runner', `reads the test runner's environment variable \`${name}\``);
    } else if (
      node.type === 'VariableDeclarator' &&
      isJsNode(node['id']) &&
      node['id'].type === 'ObjectPattern' &&
      isEnv(resolve(node['init']))
    ) {
      readsEnv = true;
      for (const prop of (node['id']['properties'] as JsNode[]) ?? []) {
        const key = prop['key'] as JsNode | undefined;
        const name = key ? ((key['name'] ?? key['value']) as string | undefined) : undefined;
        if (name !== undefined && names(name))
          report(prop, 'detects-runner', `reads the test runner's environment variable \`${name}\``);
      }
    } else {
      const text = constantString(node);
      if (text === null || !names(text)) return;
      strings.push([node, text]);
      // The pieces of a name found joined are not found again.
      walkJs(node, (inner) => covered.add(inner));
    }
  });
  if (readsEnv)
    for (const [node, text] of strings)
      report(node, 'detects-runner', `reads the test runner's environment variable \`${text}\``);
}

/** A string literal's value, a template's without expressions, or `'A' + 'B'` joined. */
export function constantString(node: unknown): string | null {
  if (!isJsNode(node)) return null;
  if (node.type === 'StringLiteral') return node['value'] as string;
  if (node.type === 'TemplateLiteral' && (node['expressions'] as unknown[]).length === 0)
    return (node['quasis'] as Array<{ value: { cooked?: string } }>)[0]?.value.cooked ?? null;
  if (node.type === 'BinaryExpression' && node['operator'] === '+') {
    const left = constantString(node['left']);
    const right = constantString(node['right']);
    return left !== null && right !== null ? left + right : null;
  }
  return null;
}

/** A method of a value, written any way (`valueOf() {}`, `valueOf: () => 5`, `X.prototype.equals = …`), that answers for any operand. */
export function equalsAnythingHit(node: JsNode, report: ValueReport): void {
  const found = methodOf(node);
  if (!found) return;
  const [name, fn] = found;
  const params = (fn['params'] as JsNode[] | undefined) ?? [];
  if (COMPARING.has(name) && !readsFirstParam(fn, params))
    report(fn, 'equals-anything', `defines \`${name}\` that never reads the other operand`);
  else if ((PRIMITIVE.has(name) || COMPARING.has(name)) && answersConstant(fn))
    report(fn, 'equals-anything', `defines \`${name}\` that answers a constant`);
}

function methodOf(node: JsNode): [string, JsNode] | null {
  if (node.type === 'ClassMethod' || node.type === 'ObjectMethod') {
    const name = keyName(node['key'], node['computed'] === true);
    return name !== null && node['kind'] === 'method' ? [name, node] : null;
  }
  if (
    (node.type === 'ObjectProperty' || node.type === 'ClassProperty') &&
    isJsNode(node['value']) &&
    FUNCTION.test(node['value'].type)
  ) {
    const name = keyName(node['key'], node['computed'] === true);
    return name !== null ? [name, node['value']] : null;
  }
  if (
    node.type === 'AssignmentExpression' &&
    isJsNode(node['left']) &&
    /MemberExpression$/.test(node['left'].type) &&
    isJsNode(node['right']) &&
    FUNCTION.test(node['right'].type)
  ) {
    const name = keyName(node['left']['property'], node['left']['computed'] === true);
    return name !== null ? [name, node['right']] : null;
  }
  return null;
}

function keyName(key: unknown, computed: boolean): string | null {
  if (!isJsNode(key)) return null;
  if (computed && /MemberExpression$/.test(key.type) && (key['object'] as JsNode)['name'] === 'Symbol')
    return `Symbol.${String((key['property'] as JsNode)['name'])}`;
  if (computed) return null;
  const name = (key['name'] ?? key['value']) as unknown;
  return typeof name === 'string' && (PRIMITIVE.has(name) || COMPARING.has(name)) ? name : null;
}

function readsFirstParam(fn: JsNode, params: JsNode[]): boolean {
  const first = params[0];
  if (!first) return fn.type !== 'ArrowFunctionExpression' && bodyMentions(fn, 'arguments');
  // A destructured or defaulted operand is read in its own pattern.
  if (first.type !== 'Identifier') return true;
  return bodyMentions(fn, first['name'] as string);
}

function bodyMentions(fn: JsNode, name: string): boolean {
  let found = false;
  const body = fn['body'];
  if (isJsNode(body)) walkJs(body, (node) => (found ||= node.type === 'Identifier' && node['name'] === name));
  return found;
}

/** Every value it returns is a literal (an arrow's expression body too). */
function answersConstant(fn: JsNode): boolean {
  const body = fn['body'];
  if (!isJsNode(body)) return false;
  if (body.type !== 'BlockStatement') return isLiteral(body);
  const returns: JsNode[] = [];
  walkJs(body, (node, ancestors) => {
    if (node.type === 'ReturnStatement' && !ancestors.some((a) => a !== body && /Function|Method/.test(a.type)))
      returns.push(node);
  });
  return returns.length > 0 && returns.every((r) => isLiteral(r['argument']));
}

function isLiteral(node: unknown): boolean {
  if (!isJsNode(node)) return false;
  if (/^(NumericLiteral|StringLiteral|BooleanLiteral|BigIntLiteral)$/.test(node.type)) return true;
  if (node.type === 'TemplateLiteral') return (node['expressions'] as unknown[]).length === 0;
  if (node.type === 'ConditionalExpression') return isLiteral(node['consequent']) && isLiteral(node['alternate']);
  return node.type === 'UnaryExpression' && isLiteral(node['argument']);
}
