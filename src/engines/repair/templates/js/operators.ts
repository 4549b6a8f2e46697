// Operator replacement: relational, equality, logical, arithmetic, bitwise, compound assignment,
// update; and swapped operands of non-commutative operators.
import type { TemplateId } from '../../candidate.ts';
import { isJsNode } from '../../../../core/js-tree.ts';
import { atom, operatorOffset, type JsTemplate, type Mutation } from './mutation.ts';

const FAMILIES: { template: TemplateId; operators: string[] }[] = [
  { template: 'relational-operator', operators: ['<', '<=', '>', '>='] },
  { template: 'equality-operator', operators: ['===', '!==', '==', '!='] },
  { template: 'arithmetic-operator', operators: ['+', '-', '*', '/', '%', '**'] },
  { template: 'bitwise-operator', operators: ['&', '|', '^', '<<', '>>', '>>>'] },
  { template: 'logical-operator', operators: ['&&', '||', '??'] },
];

/** Replacements in the order a person's slip is likeliest: the closest operator first. */
const PREFERRED: Record<string, string[]> = {
  '<': ['<=', '>', '>='],
  '<=': ['<', '>=', '>'],
  '>': ['>=', '<', '<='],
  '>=': ['>', '<=', '<'],
  '===': ['!==', '=='],
  '!==': ['===', '!='],
  '==': ['!=', '==='],
  '!=': ['==', '!=='],
  '+': ['-', '*'],
  '-': ['+', '*'],
  '*': ['/', '+'],
  '/': ['*', '%'],
  '%': ['/', '*'],
  '**': ['*'],
  '&&': ['||', '??'],
  '||': ['&&', '??'],
  '??': ['||', '&&'],
  '&': ['|', '^'],
  '|': ['&', '^'],
  '^': ['&', '|'],
  '<<': ['>>'],
  '>>': ['<<', '>>>'],
  '>>>': ['>>'],
};

const NON_COMMUTATIVE = new Set(['-', '/', '%', '**', '<<', '>>', '>>>']);

export const operatorReplacement: JsTemplate = (site) => {
  const { node, source } = site;
  if ((node.type !== 'BinaryExpression' && node.type !== 'LogicalExpression') || !isJsNode(node.left) || !isJsNode(node.right))
    return [];
  const op = node.operator as string;
  const family = FAMILIES.find((f) => f.operators.includes(op));
  const offset = operatorOffset(source, node.left, node.right, op);
  if (!family || offset === null) return [];
  // `x - 1` → `x * 1` is the identity, not a fix: leave those to the drop below.
  const identity = node.right.type === 'NumericLiteral' && node.right.value === 1;
  // The closest replacements first, then the rest of the operator's family.
  const replacements = [...new Set([...(PREFERRED[op] ?? []), ...family.operators.filter((o) => o !== op)])];
  const out: Mutation[] = replacements
    .filter((r) => !(identity && (r === '*' || r === '/' || r === '**')))
    .map((replacement) => ({
      template: family.template,
      edits: [{ start: offset, end: offset + op.length, text: replacement }],
      description: `\`${op}\` → \`${replacement}\``,
    }));
  if (NON_COMMUTATIVE.has(op)) {
    out.push({
      template: 'swap-operands',
      edits: [
        { start: node.left.start, end: node.left.end, text: atom(site, node.right) },
        { start: node.right.start, end: node.right.end, text: atom(site, node.left) },
      ],
      description: `swapped the operands of \`${op}\``,
    });
  }
  // `n + 1` → `n`: an off-by-one written as an explicit adjustment.
  if (op === '+' || op === '-') {
    if (node.right.type === 'NumericLiteral' && node.right.value === 1) {
      out.push({
        template: 'off-by-one-bound',
        edits: [{ start: node.left.end, end: node.end, text: '' }],
        description: `dropped \`${op} 1\``,
      });
    }
    if (op === '+' && node.left.type === 'NumericLiteral' && node.left.value === 1) {
      out.push({
        template: 'off-by-one-bound',
        edits: [{ start: node.start, end: node.right.start, text: '' }],
        description: 'dropped `1 +`',
      });
    }
  }
  return out;
};

const COMPOUND: Record<string, string[]> = {
  '+=': ['-='],
  '-=': ['+='],
  '*=': ['/='],
  '/=': ['*='],
  '||=': ['&&=', '??='],
  '&&=': ['||='],
  '??=': ['||='],
};

export const assignmentOperator: JsTemplate = (site) => {
  const { node, source } = site;
  if (node.type !== 'AssignmentExpression' || !isJsNode(node.left) || !isJsNode(node.right)) return [];
  const op = node.operator as string;
  const offset = operatorOffset(source, node.left, node.right, op);
  if (offset === null) return [];
  const template: TemplateId =
    op.startsWith('|') || op.startsWith('&') || op.startsWith('?') ? 'logical-operator' : 'arithmetic-operator';
  return (COMPOUND[op] ?? []).map((replacement) => ({
    template,
    edits: [{ start: offset, end: offset + op.length, text: replacement }],
    description: `\`${op}\` → \`${replacement}\``,
  }));
};

export const updateOperator: JsTemplate = (site) => {
  const { node, source } = site;
  if (node.type !== 'UpdateExpression') return [];
  const op = node.operator as string;
  const index = source.indexOf(op, node.start);
  if (index === -1 || index >= node.end) return [];
  const replacement = op === '++' ? '--' : '++';
  return [
    {
      template: 'arithmetic-operator',
      edits: [{ start: index, end: index + 2, text: replacement }],
      description: `\`${op}\` → \`${replacement}\``,
    },
  ];
};
