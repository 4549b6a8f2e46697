// Statements: an extra call removed. Real fixes delete a statement about as often as they change an
// operator (TSSB-3M counts single-statement deletions among its most frequent patterns; in bench/real:
// commander's help that pushed one blank line too many).
import { replaceNode, text, type JsTemplate } from './mutation.ts';

/** `desc.push('');` → nothing: only calls, whose removal leaves every declaration and flow in place. */
export const deleteStatement: JsTemplate = (site) => {
  const { node, ancestors } = site;
  const parent = ancestors.at(-1);
  if (node.type !== 'ExpressionStatement' || !parent || (parent.type !== 'BlockStatement' && parent.type !== 'Program'))
    return [];
  const expression = node.expression as { type: string };
  if (expression.type !== 'CallExpression' && expression.type !== 'AwaitExpression') return [];
  const raw = text(site, node);
  return [{ template: 'delete-statement', edits: [replaceNode(node, '')], description: `deleted \`${raw.slice(0, 50)}\`` }];
};
