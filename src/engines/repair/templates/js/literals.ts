// Literals and bounds: numeric ±1, boolean flips, index and slice bounds, `.length` in comparisons.
import { isJsNode, type JsNode } from '../../../../core/js-tree.ts';
import { replaceNode, text, type JsTemplate, type Mutation } from './mutation.ts';

export const numericOffByOne: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'NumericLiteral') return [];
  const value = node.value as number;
  if (!Number.isInteger(value) || Math.abs(value) > 1e9) return [];
  const raw = text(site, node);
  return [value + 1, value - 1]
    .filter((v) => v >= 0 || value < 0)
    .map((v) => ({
      template: 'off-by-one-literal' as const,
      edits: [replaceNode(node, String(v))],
      description: `\`${raw}\` → \`${v}\``,
    }));
};

export const booleanFlip: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'BooleanLiteral') return [];
  const flipped = node.value ? 'false' : 'true';
  return [
    {
      template: 'change-return-value',
      edits: [replaceNode(node, flipped)],
      description: `\`${String(node.value)}\` → \`${flipped}\``,
    },
  ];
};

function shifted(site: Parameters<JsTemplate>[0], expr: JsNode): Mutation[] {
  const raw = text(site, expr);
  // `size - 1` → `size - 1 + 1` undoes an adjustment the code wrote on purpose; dropping it
  // (`dropped \`- 1\``, arithmetic templates) is the same program and the patch a person writes.
  const cancels = (delta: string) =>
    expr.type === 'BinaryExpression' &&
    isJsNode(expr.right) &&
    expr.right.type === 'NumericLiteral' &&
    expr.right.value === 1 &&
    expr.operator !== delta[0];
  return ['- 1', '+ 1']
    .filter((delta) => !cancels(delta))
    .map((delta) => ({
      template: 'off-by-one-bound' as const,
      edits: [replaceNode(expr, `${raw} ${delta}`)],
      description: `\`${raw}\` → \`${raw} ${delta}\``,
    }));
}

/** `x[i]` → `x[i - 1]` / `x[i + 1]` (not for literal indices: the literal template covers those). */
export const indexBound: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'MemberExpression' && node.type !== 'OptionalMemberExpression') return [];
  if (
    !node.computed ||
    !isJsNode(node.property) ||
    node.property.type === 'NumericLiteral' ||
    node.property.type === 'StringLiteral'
  )
    return [];
  return shifted(site, node.property);
};

const SLICING = new Set(['slice', 'substring', 'substr', 'splice']);

export const sliceBound: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') return [];
  const callee = node.callee;
  if (!isJsNode(callee) || !isJsNode(callee.property) || !SLICING.has(callee.property.name as string)) return [];
  return (node.arguments as JsNode[])
    .filter((a) => a.type !== 'NumericLiteral' && a.type !== 'SpreadElement')
    .flatMap((a) => shifted(site, a));
};

/** `a.length` compared with something → `a.length - 1` / `+ 1`. */
export const lengthBound: JsTemplate = (site) => {
  const { node, ancestors } = site;
  const parent = ancestors.at(-1);
  if (node.type !== 'MemberExpression' || !isJsNode(node.property) || node.property.name !== 'length' || node.computed) return [];
  if (
    !parent ||
    parent.type !== 'BinaryExpression' ||
    !['<', '<=', '>', '>=', '===', '!==', '==', '!='].includes(parent.operator as string)
  )
    return [];
  return shifted(site, node);
};
