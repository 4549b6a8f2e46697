// Missing guards: `if (x == null) return <fallback>;` before a statement that dereferences x, and
// optional chaining; changed return values.
import { isJsNode } from '../../../../core/js-tree.ts';
import { replaceNode, text, type JsTemplate, type Mutation } from './mutation.ts';

const FALLBACKS = ['undefined', 'null', '0', "''", '[]', 'false'];
const STATEMENT = /Statement$|Declaration$/;

/** `a.b.c` → `a.b?.c`: the access that throws on a missing value becomes optional. */
export const optionalChaining: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'MemberExpression' || !isJsNode(node.object) || !isJsNode(node.property) || node.optional) return [];
  if (
    !['Identifier', 'MemberExpression', 'OptionalMemberExpression', 'CallExpression', 'ThisExpression'].includes(node.object.type)
  )
    return [];
  const target = text(site, node.object);
  return [
    {
      template: 'add-null-guard',
      edits: [{ start: node.object.end, end: node.property.start, text: node.computed ? '?.[' : '?.' }],
      description: `\`${target}.\` → \`${target}?.\``,
    },
  ];
};

export const nullGuard: JsTemplate = (site) => {
  const { node, ancestors, source } = site;
  if (node.type !== 'MemberExpression' || !isJsNode(node.object) || node.object.type !== 'Identifier' || node.optional) return [];
  const inFunction = ancestors.some((a) => /Function|Method/.test(a.type));
  const statement = [...ancestors].reverse().find((a) => STATEMENT.test(a.type) && a.type !== 'BlockStatement');
  if (!inFunction || !statement) return [];
  const name = node.object.name as string;
  const lineStart = source.lastIndexOf('\n', statement.start - 1) + 1;
  const indent = /^[ \t]*/.exec(source.slice(lineStart))?.[0] ?? '';
  const guardAt = statement.start;
  return FALLBACKS.map((fallback) => ({
    template: 'add-null-guard',
    edits: [{ start: guardAt, end: guardAt, text: `if (${name} == null) return ${fallback};\n${indent}` }],
    description: `guard: \`if (${name} == null) return ${fallback};\``,
  }));
};

export const changeReturnValue: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'ReturnStatement' || !isJsNode(node.argument)) return [];
  const value = text(site, node.argument);
  const arg = node.argument;
  const out: Mutation[] = [];
  if (arg.type === 'UnaryExpression' && arg.operator === '!' && isJsNode(arg.argument)) {
    out.push({
      template: 'change-return-value',
      edits: [replaceNode(arg, text(site, arg.argument))],
      description: `return \`${value}\` → its negation`,
    });
  } else if (
    arg.type === 'BinaryExpression' ||
    arg.type === 'LogicalExpression' ||
    arg.type === 'CallExpression' ||
    arg.type === 'Identifier'
  ) {
    out.push({
      template: 'change-return-value',
      edits: [replaceNode(arg, `!(${value})`)],
      description: `return \`${value}\` → \`!(${value})\``,
    });
  }
  return out;
};
