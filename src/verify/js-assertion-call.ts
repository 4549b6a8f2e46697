// How the changed-expectations look reads an assertion call's member chain (js-expectations.ts,
// js-negations.ts): `expect(x).to.deep.equal(y)`, `x.should.equal(y)`, `assert.strict.equal(x, y)`,
// `t.assert.equal(x, y)`. One reading for both, so a literal changed and an assertion turned into its
// opposite never disagree on what counts as an assertion.
import type { JsNode } from '../core/js-tree.ts';

/** Objects whose methods assert: node's `assert`, chai's, a test context's (`t`). */
const ASSERT_OBJECTS = new Set(['assert', 't']);

export interface AssertionCall {
  method: string;
  /** The method's name node, where an edit renames it. */
  property: JsNode;
  /** The chain starts at `expect(…)` (jest, vitest, chai). */
  expects: boolean;
  /** The chain reads `should` (chai's and should.js's). */
  should: boolean;
  /** The method is an assert object's: `assert.equal`, `assert.strict.equal`, `t.equal`. */
  assertLike: boolean;
}

/**
 * `callee` read as an assertion method, or null: not a named member, a chain already negated
 * (`.not`), or a promise's (`resolves`, `rejects`) not awaited, which holds only once awaited: the
 * test may end before it does.
 */
export function assertionCall(callee: JsNode, awaited: boolean): AssertionCall | null {
  const method = propertyName(callee);
  if (method === null) return null;
  const chain = chainNames(callee['object'] as JsNode);
  if (chain.names.includes('not')) return null;
  if (!awaited && (chain.names.includes('resolves') || chain.names.includes('rejects'))) return null;
  return {
    method,
    property: callee['property'] as JsNode,
    expects: chain.expects,
    should: chain.names.includes('should'),
    assertLike: chain.names.includes('assert') || ASSERT_OBJECTS.has(chain.root ?? ''),
  };
}

/** A non-computed member's property name (`a.b` → `b`), else null. */
export function propertyName(node: JsNode): string | null {
  if (node.type !== 'MemberExpression' || node['computed']) return null;
  const property = node['property'] as JsNode;
  return property.type === 'Identifier' ? (property['name'] as string) : null;
}

/** The names along a member chain, its root name, and whether it starts at `expect(…)`. */
export function chainNames(node: JsNode): { names: string[]; root: string | null; expects: boolean } {
  const names: string[] = [];
  let expects = false;
  let at: JsNode = node;
  for (;;) {
    if (at.type === 'MemberExpression') {
      const name = propertyName(at);
      if (name) names.push(name);
      at = at['object'] as JsNode;
    } else if (at.type === 'CallExpression') {
      const callee = at['callee'] as JsNode;
      if ((callee.type === 'Identifier' && callee['name'] === 'expect') || propertyName(callee) === 'expect') expects = true;
      at = callee;
    } else {
      return { names, root: at.type === 'Identifier' ? (at['name'] as string) : null, expects };
    }
  }
}
