// Variable misuse: an identifier replaced by another of the same kind in scope; a call's receiver
// replaced by another value in scope.
import { isJsNode } from '../../../../core/js-tree.ts';
import { replaceNode, type JsTemplate, type Mutation } from './mutation.ts';
import { namesInScope } from './scope.ts';

/** Identifier positions that are not references (declarations, property keys, labels...). */
function isReference(site: Parameters<JsTemplate>[0]): boolean {
  const { node, ancestors } = site;
  const parent = ancestors.at(-1);
  if (!parent) return false;
  if (
    (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') &&
    parent.property === node &&
    !parent.computed
  )
    return false;
  if (
    (parent.type === 'ObjectProperty' ||
      parent.type === 'ObjectMethod' ||
      parent.type === 'ClassProperty' ||
      parent.type === 'ClassMethod') &&
    parent.key === node &&
    !parent.computed
  )
    return false;
  if (parent.type === 'VariableDeclarator' && parent.id === node) return false;
  if (
    (parent.type === 'FunctionDeclaration' || parent.type === 'FunctionExpression') &&
    (parent.id === node || (parent.params as unknown[]).includes(node))
  )
    return false;
  if (parent.type === 'ArrowFunctionExpression' && (parent.params as unknown[]).includes(node)) return false;
  if (
    /^(Import|Export)/.test(parent.type) ||
    parent.type.startsWith('TS') ||
    parent.type === 'LabeledStatement' ||
    parent.type === 'BreakStatement' ||
    parent.type === 'ContinueStatement'
  )
    return false;
  if (parent.type === 'AssignmentPattern' && parent.left === node) return false;
  if (parent.type === 'CatchClause') return false;
  return true;
}

const MAX_PER_SITE = 8;

export const replaceIdentifier: JsTemplate = (site) => {
  const { node, ancestors, program } = site;
  if (node.type !== 'Identifier' || !isReference(site)) return [];
  const name = node.name as string;
  if (name === 'undefined' || name === 'arguments') return [];
  const parent = ancestors.at(-1);
  const isCallee = parent?.type === 'CallExpression' && parent.callee === node;
  const scope = namesInScope(program, ancestors, node.start);
  const pool = isCallee ? scope.functions : scope.values;
  if (!pool.includes(name) && !isCallee) return [];
  const out: Mutation[] = [];
  for (const other of pool) {
    if (other === name || out.length >= MAX_PER_SITE) continue;
    out.push({ template: 'replace-identifier', edits: [replaceNode(node, other)], description: `\`${name}\` → \`${other}\`` });
  }
  return out;
};

export const changeReceiver: JsTemplate = (site) => {
  const { node, ancestors, program } = site;
  if ((node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') || !isJsNode(node.callee)) return [];
  const receiver = node.callee.object;
  if (!isJsNode(receiver) || receiver.type !== 'Identifier') return [];
  const name = receiver.name as string;
  const scope = namesInScope(program, ancestors, node.start);
  if (!scope.values.includes(name)) return [];
  return scope.values
    .filter((other) => other !== name)
    .slice(0, MAX_PER_SITE)
    .map((other) => ({
      template: 'change-receiver' as const,
      edits: [replaceNode(receiver, other)],
      description: `receiver \`${name}\` → \`${other}\``,
    }));
};
