// The path a call takes through a probed function (PATCH-SIM's idea, DESIGN.md §3.3): every statement
// of the body and every branch of a `?:`, `&&`, `||` or `??` gets a marker that, when it runs, adds
// its number to the current call's path. The original program's path on a generated input, set
// beside its paths on the failing and on the passing tests' calls, tells which of them the input is
// like (compare-records.ts). Markers go on existing lines, so no line number moves:
//   if (a) x(); else y();  →  if (a) {M(1); x();} else {M(2); y();}
//   return a ? b : c;      →  M(0); return a ? (M(1), b) : (M(2), c);
import { isJsNode, type JsNode } from '../../core/js-tree.ts';
import type { Edit } from './js-probe-wrap.ts';

/** A statement whose own position holds nothing that runs (declarations the runtime hoists or erases). */
const NOT_RUN = new Set([
  'FunctionDeclaration',
  'EmptyStatement',
  'TSInterfaceDeclaration',
  'TSTypeAliasDeclaration',
  'TSDeclareFunction',
  'TSModuleDeclaration',
]);
/** Statements that hold one statement (not a list) in these keys: braces let a marker go in front of it. */
const SINGLE_BODIES: Record<string, readonly string[]> = {
  IfStatement: ['consequent', 'alternate'],
  ForStatement: ['body'],
  ForInStatement: ['body'],
  ForOfStatement: ['body'],
  WhileStatement: ['body'],
  DoWhileStatement: ['body'],
  WithStatement: ['body'],
};
/** Statement lists: a marker goes in front of each statement. */
const LISTS: Record<string, string> = { BlockStatement: 'body', SwitchCase: 'consequent', StaticBlock: 'body' };
const SKIPPED_KEYS = new Set([
  'loc',
  'leadingComments',
  'trailingComments',
  'innerComments',
  'extra',
  'typeAnnotation',
  'returnType',
  'typeParameters',
  'params',
  'decorators',
]);

function asNode(value: unknown): JsNode | undefined {
  return isJsNode(value) ? value : undefined;
}

/**
 * The marker edits inside `fn` (its body; nested functions too, since a callback runs inside the
 * call), leaving out the functions in `own`, which mark their own paths. `marker(k)` is the code of
 * marker k as an expression.
 */
export function pathEdits(fn: JsNode, own: ReadonlySet<JsNode>, marker: (k: number) => string): Edit[] {
  const edits: Edit[] = [];
  let next = 0;
  const add = (node: JsNode, open: string, close: string | null) => {
    edits.push({ pos: node.start, text: open, side: 1, spanStart: node.start, spanEnd: node.end });
    if (close !== null) edits.push({ pos: node.end, text: close, side: 0, spanStart: node.start, spanEnd: node.end });
  };
  const visit = (node: JsNode, parent: JsNode | null, key: string) => {
    if (node !== fn && own.has(node)) return;
    const inList = parent !== null && LISTS[parent.type] === key;
    // A block in that place needs no braces: its own statements are marked.
    const single = parent !== null && node.type !== 'BlockStatement' && (SINGLE_BODIES[parent.type] ?? []).includes(key);
    if ((inList || single) && !NOT_RUN.has(node.type)) {
      // A function declaration as a whole `if` body keeps its braces-free meaning: left unmarked above.
      add(node, single ? `{${marker(next++)}; ` : `${marker(next++)}; `, single ? '}' : null);
    } else if (parent !== null && isBranch(parent, key)) {
      add(node, `(${marker(next++)}, `, ')');
    }
    for (const childKey of Object.keys(node)) {
      if (SKIPPED_KEYS.has(childKey)) continue;
      const value = node[childKey];
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) {
        const childNode = asNode(child);
        if (childNode && !isTypeOnly(childNode)) visit(childNode, node, childKey);
      }
    }
  };
  const body = asNode(fn['body']);
  if (body) visit(body, fn, 'body');
  return edits;
}

/** The arms of a choice: `?:`'s two results, and the right side of a `&&`, `||` or `??`. */
function isBranch(parent: JsNode, key: string): boolean {
  if (parent.type === 'ConditionalExpression') return key === 'consequent' || key === 'alternate';
  return parent.type === 'LogicalExpression' && key === 'right';
}

function isTypeOnly(node: JsNode): boolean {
  return (
    node.type.startsWith('TS') &&
    ![
      'TSAsExpression',
      'TSSatisfiesExpression',
      'TSNonNullExpression',
      'TSTypeAssertion',
      'TSEnumDeclaration',
      'TSParameterProperty',
    ].includes(node.type)
  );
}
