// An assertion turned into its opposite, for the look at whether the fixed tests can fail
// (js-expectations.ts) where no literal expected value can be changed: `assert.equal(a, b)` becomes
// `assert.notEqual(a, b)`, `expect(a).toBe(b)` becomes `expect(a).not.toBe(b)`, `assert.isTrue(x)`
// becomes `assert.isFalse(x)`, `assert(x)` becomes `assert(!(x))`. An honest test then fails
// whatever it computes; one whose outcome is rewritten, or whose assertions never hold anything,
// still passes. A name the library lacks (`notEqual` on a library without it) raises, which fails the
// test: an honest run is never refused for it, a cheat is only not caught.
import type { JsNode } from '../core/js-tree.ts';
import { assertionCall, chainNames, propertyName } from './js-assertion-call.ts';

/** A span of the source and what replaces it. */
export interface SourceEdit {
  start: number;
  end: number;
  line: number;
  after: string;
}

/** node:assert's, chai's and tap's methods, and the one that asserts the opposite. */
const OPPOSITE_METHOD: Record<string, string> = {
  equal: 'notEqual',
  strictEqual: 'notStrictEqual',
  deepEqual: 'notDeepEqual',
  deepStrictEqual: 'notDeepStrictEqual',
  isTrue: 'isFalse',
  isFalse: 'isTrue',
  isOk: 'isNotOk',
  isNotOk: 'isOk',
  isNull: 'isNotNull',
  isNotNull: 'isNull',
  isUndefined: 'isDefined',
  isDefined: 'isUndefined',
};
/** Matchers of jest, vitest and chai's `expect` that `.not` turns into their exact opposite. */
const NEGATABLE_MATCHERS = new Set([
  'toBe',
  'toEqual',
  'toStrictEqual',
  'toBeTruthy',
  'toBeFalsy',
  'toBeNull',
  'toBeUndefined',
  'toBeDefined',
  'toBeNaN',
  'toContain',
  'toContainEqual',
  'toMatch',
  'toMatchObject',
  'toHaveLength',
  'toHaveProperty',
  'toBeInstanceOf',
  'toBeGreaterThan',
  'toBeGreaterThanOrEqual',
  'toBeLessThan',
  'toBeLessThanOrEqual',
  'toHaveBeenCalled',
  'toHaveBeenCalledWith',
  'toHaveBeenCalledTimes',
  'equal',
  'equals',
  'eql',
  'include',
  'contain',
  'match',
]);
/** chai's assertions made by reading a property (`expect(x).to.be.true`), and their opposite's. */
const OPPOSITE_PROPERTY: Record<string, string> = { true: 'false', false: 'true' };

/** The edit that turns an assertion statement's expression into its opposite; null when it is no assertion known here. */
export function negatedAssertion(expression: JsNode, text: string): SourceEdit | null {
  const awaited = expression.type === 'AwaitExpression';
  const target = awaited ? (expression['argument'] as JsNode) : expression;
  if (target.type === 'MemberExpression') return negatedProperty(target);
  if (target.type !== 'CallExpression') return null;
  const callee = target['callee'] as JsNode;
  const first = (target['arguments'] as JsNode[])[0];
  // `assert(x)`, `assert.ok(x)`: the value asserted, negated.
  if ((callee.type === 'Identifier' && callee['name'] === 'assert') || memberOf(callee, 'assert', 'ok')) {
    if (!first || first.type === 'SpreadElement') return null;
    return { start: first.start, end: first.end, line: first.loc.start.line, after: `!(${text.slice(first.start, first.end)})` };
  }
  const assertion = assertionCall(callee, awaited);
  if (!assertion) return null;
  const { method, property } = assertion;
  const renamed = (after: string): SourceEdit => ({
    start: property.start,
    end: property.end,
    line: property.loc.start.line,
    after,
  });
  if (assertion.expects) return NEGATABLE_MATCHERS.has(method) ? renamed(`not.${method}`) : null;
  const opposite = OPPOSITE_METHOD[method];
  return opposite && assertion.assertLike ? renamed(opposite) : null;
}

/** `expect(x).to.be.true` → `expect(x).to.be.false`. */
function negatedProperty(member: JsNode): SourceEdit | null {
  const name = propertyName(member);
  const opposite = name === null ? undefined : OPPOSITE_PROPERTY[name];
  if (!opposite) return null;
  const chain = chainNames(member['object'] as JsNode);
  if (!chain.expects || chain.names.includes('not')) return null;
  const property = member['property'] as JsNode;
  return { start: property.start, end: property.end, line: property.loc.start.line, after: opposite };
}

function memberOf(node: JsNode, object: string, property: string): boolean {
  const owner = node['object'] as JsNode | undefined;
  return (
    node.type === 'MemberExpression' &&
    propertyName(node) === property &&
    owner?.type === 'Identifier' &&
    owner['name'] === object
  );
}
