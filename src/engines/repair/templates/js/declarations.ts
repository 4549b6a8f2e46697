// Declarations: one whose names nothing reads, removed. A lint rule names it (`no-unused-vars`, tsc's
// `noUnusedLocals`), and a leftover of a refactoring is as often a real program's bug: the value it
// holds was meant to be used, or was not meant to be there. Only a declaration whose initial values
// do nothing when computed is removed, so that no call, getter or side effect goes with it.
import { walkJs, WITH_TYPES, type JsNode } from '../../../../core/js-tree.ts';
import { text, type JsTemplate, type SiteContext } from './mutation.ts';

const LITERALS = new Set([
  'NumericLiteral',
  'StringLiteral',
  'BooleanLiteral',
  'NullLiteral',
  'BigIntLiteral',
  'RegExpLiteral',
  'Identifier',
  'ArrowFunctionExpression',
  'FunctionExpression',
]);

/** Whether computing the value can do nothing but make it: literals, names, functions, and arrays or objects of them. */
function pure(node: JsNode | null | undefined): boolean {
  if (!node) return true;
  if (LITERALS.has(node.type)) return true;
  if (node.type === 'TemplateLiteral') return (node.expressions as JsNode[]).length === 0;
  if (node.type === 'UnaryExpression') return node.operator !== 'delete' && pure(node.argument as JsNode);
  if (node.type === 'ArrayExpression') return (node.elements as Array<JsNode | null>).every((e) => e === null || pure(e));
  if (node.type === 'ObjectExpression')
    return (node.properties as JsNode[]).every(
      (p) => p.type === 'ObjectProperty' && !(p.computed as boolean) && pure(p.value as JsNode),
    );
  if (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression') return pure(node.expression as JsNode);
  return false;
}

/** How many identifiers of the program bear `name` (its declaration's own included). */
function mentions(program: JsNode, name: string): number {
  let count = 0;
  walkJs(
    program,
    (node) => {
      if ((node.type === 'Identifier' || node.type === 'JSXIdentifier') && node.name === name) count++;
    },
    WITH_TYPES,
  );
  return count;
}

/**
 * The declaration's text, with its whole line(s) when nothing else is on them, and the blank line
 * after them when one is before them too (or they open the file): no blank lines are left doubled.
 */
function removal(site: SiteContext, node: JsNode): { start: number; end: number; text: string } {
  const { source } = site;
  const lineStart = source.lastIndexOf('\n', node.start - 1) + 1;
  const newline = source.indexOf('\n', node.end);
  let lineEnd = newline === -1 ? source.length : newline + 1;
  const alone = source.slice(lineStart, node.start).trim() === '' && source.slice(node.end, lineEnd).trim() === '';
  if (!alone) return { start: node.start, end: node.end, text: '' };
  const blankBefore = lineStart === 0 || /(^|\n)[ \t]*\n$/.test(source.slice(0, lineStart));
  const blankAfter = /^[ \t]*\n/.exec(source.slice(lineEnd));
  if (blankBefore && blankAfter) lineEnd += blankAfter[0].length;
  return { start: lineStart, end: lineEnd, text: '' };
}

/** `const unused = 1;` → nothing, when nothing reads `unused`. */
export const removeUnusedDeclaration: JsTemplate = (site) => {
  const { node, ancestors, program } = site;
  const parent = ancestors.at(-1);
  if (node.type !== 'VariableDeclaration' || !parent || (parent.type !== 'BlockStatement' && parent.type !== 'Program'))
    return [];
  const declarators = node.declarations as JsNode[];
  const ids = declarators.map((d) => d.id as JsNode);
  if (ids.some((id) => id.type !== 'Identifier') || !declarators.every((d) => pure(d.init as JsNode | null))) return [];
  if (ids.some((id) => mentions(program, id.name as string) > 1)) return [];
  return [
    {
      template: 'remove-unused-declaration',
      edits: [removal(site, node)],
      description: `removed \`${text(site, node).slice(0, 50)}\`, whose name nothing reads`,
    },
  ];
};
