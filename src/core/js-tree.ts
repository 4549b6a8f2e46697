// JavaScript and TypeScript syntax trees for the judge, the assessment and the repair engine, from
// @babel/parser: parsing a file, walking it with ancestors, and the lines a node itself occupies. The
// code is parsed, never run, with one configuration for every stage (src/core/js-parse.ts).
import { parseJsProgram } from './js-parse.ts';

export { JS_SOURCE } from './js-parse.ts';

export interface JsNode {
  type: string;
  start: number;
  end: number;
  loc: { start: { line: number; column: number }; end: { line: number; column: number } };
  [key: string]: unknown;
}

export function isJsNode(value: unknown): value is JsNode {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as JsNode).type === 'string' &&
    typeof (value as JsNode).start === 'number'
  );
}

/** The program node, or null when the file parses neither as a module nor as a script. */
export function parseJs(file: string, source: string): JsNode | null {
  return parseJsProgram(file, source) as JsNode | null;
}

/** Keys that hold no child of the program: positions, comments (nodes of their own), the parser's notes. */
const NOT_CHILDREN = new Set(['loc', 'leadingComments', 'trailingComments', 'innerComments', 'extra']);
/** Keys that hold TypeScript types only: an annotation, a return type, type parameters or arguments. */
const TYPE_KEYS = new Set(['typeAnnotation', 'returnType', 'typeParameters']);

export interface WalkOptions {
  /**
   * Whether types are walked too. They never run, so by default they are left out: a name or a call
   * the judge looks for is never one in a type. The repair engine walks them (`WITH_TYPES`): a
   * runner that type-checks the code it loads (ts-jest) fails a test on a type, which an edit of a
   * literal in a type can fix.
   */
  types?: boolean;
}

/** The walk of the repair engine, whose candidates and facts may be about types too. */
export const WITH_TYPES: WalkOptions = { types: true };

/** The child nodes of a node, in source order (comments and, unless asked, types left out). */
export function childrenOf(node: JsNode, options: WalkOptions = {}): JsNode[] {
  const children: JsNode[] = [];
  for (const key of Object.keys(node)) {
    if (NOT_CHILDREN.has(key) || (!options.types && TYPE_KEYS.has(key))) continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const child of value) if (isJsNode(child)) children.push(child);
    } else if (isJsNode(value)) {
      children.push(value);
    }
  }
  return children.sort((a, b) => a.start - b.start);
}

/** Depth-first walk, in source order, with the ancestors of each node (nearest last). */
export function walkJs(
  root: JsNode,
  visit: (node: JsNode, ancestors: readonly JsNode[]) => void,
  options: WalkOptions = {},
): void {
  const ancestors: JsNode[] = [];
  const visitNode = (node: JsNode) => {
    visit(node, ancestors);
    ancestors.push(node);
    for (const child of childrenOf(node, options)) visitNode(child);
    ancestors.pop();
  };
  visitNode(root);
}

const FUNCTIONS = new Set([
  'FunctionExpression',
  'ArrowFunctionExpression',
  'FunctionDeclaration',
  'ObjectMethod',
  'ClassMethod',
]);

/**
 * The lines a node occupies, less the inside of the functions it contains: an added line in the
 * body of an existing `process.on('exit', () => {…})` handler is not an added `process.on`.
 */
export function ownLines(node: JsNode): Set<number> {
  const lines = new Set<number>();
  for (let line = node.loc.start.line; line <= node.loc.end.line; line++) lines.add(line);
  walkJs(node, (inner) => {
    const body = inner['body'];
    if (inner !== node && FUNCTIONS.has(inner.type) && isJsNode(body)) {
      for (let line = body.loc.start.line + 1; line < body.loc.end.line; line++) lines.delete(line);
    }
  });
  return lines;
}

/** The string pieces of a path expression, in source order, joined with `/`; null when it has none. */
export function literalPath(node: JsNode | undefined): string | null {
  if (!node) return null;
  const pieces: string[] = [];
  const collect = (inner: JsNode) => {
    if (inner.type === 'StringLiteral' && typeof inner['value'] === 'string') pieces.push(inner['value']);
    if (inner.type === 'TemplateElement') {
      const cooked = (inner['value'] as { cooked?: string } | undefined)?.cooked;
      if (cooked) pieces.push(cooked);
    }
    // `require('node:path').join(…)`: the callee's strings name modules, not the path.
    const parts = /CallExpression$/.test(inner.type) ? (inner['arguments'] as unknown[]).filter(isJsNode) : childrenOf(inner);
    for (const part of parts) collect(part);
  };
  collect(node);
  return pieces.length > 0 ? pieces.join('/') : null;
}

/** The value of a string literal (or a template without expressions), else null. */
export function stringValue(node: unknown): string | null {
  if (!isJsNode(node)) return null;
  if (node.type === 'StringLiteral' && typeof node['value'] === 'string') return node['value'];
  if (node.type === 'TemplateLiteral' && (node['expressions'] as unknown[]).length === 0) {
    const quasis = node['quasis'] as Array<{ value: { cooked?: string } }>;
    return quasis[0]?.value.cooked ?? null;
  }
  return null;
}
