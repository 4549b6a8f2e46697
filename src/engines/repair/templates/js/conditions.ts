// Conditions: negation, removal of one side of && / ||, and loop bounds.
import { isNode } from './ast.ts';
import { replaceNode, text, type JsTemplate, type Mutation } from './mutation.ts';

const TESTED = new Set(['IfStatement', 'WhileStatement', 'DoWhileStatement', 'ConditionalExpression', 'ForStatement']);

export const negateCondition: JsTemplate = (site) => {
  const { node } = site;
  if (!TESTED.has(node.type) || !isNode(node.test)) return [];
  const test = node.test;
  const inner = text(site, test);
  // `!x` → `x` rather than `!(!x)`.
  const negated = test.type === 'UnaryExpression' && test.operator === '!' && isNode(test.argument) ? text(site, test.argument) : `!(${inner})`;
  return [{ template: 'negate-condition', edits: [replaceNode(test, negated)], description: `negated the condition \`${inner}\`` }];
};

export const dropConjunct: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'LogicalExpression' || (node.operator !== '&&' && node.operator !== '||') || !isNode(node.left) || !isNode(node.right)) return [];
  const left = text(site, node.left);
  const right = text(site, node.right);
  return [
    { template: 'drop-conjunct', edits: [replaceNode(node, left)], description: `dropped \`${node.operator as string} ${right}\`` },
    { template: 'drop-conjunct', edits: [replaceNode(node, right)], description: `dropped \`${left} ${node.operator as string}\`` },
  ];
};

const BOUND_OPERATORS = new Set(['<', '<=', '>', '>=']);

export const loopBound: JsTemplate = (site) => {
  const { node, ancestors } = site;
  const parent = ancestors.at(-1);
  if (node.type !== 'BinaryExpression' || !BOUND_OPERATORS.has(node.operator as string) || !isNode(node.right)) return [];
  if (!parent || !(parent.type === 'ForStatement' || parent.type === 'WhileStatement') || parent.test !== node) return [];
  const bound = text(site, node.right);
  const out: Mutation[] = [];
  for (const delta of ['- 1', '+ 1']) {
    out.push({ template: 'loop-bound', edits: [replaceNode(node.right, `${bound} ${delta}`)], description: `loop bound \`${bound}\` → \`${bound} ${delta}\`` });
  }
  return out;
};
