// Parsing JavaScript/TypeScript with @babel/parser, as the judge does (src/core/js-parse.ts), and
// walking its tree without extra dependencies.
import { parseJsProgram } from '../../../../core/js-parse.ts';

export interface AstNode {
  type: string;
  start: number;
  end: number;
  loc: { start: { line: number; column: number }; end: { line: number; column: number } };
  [key: string]: unknown;
}

export function isNode(value: unknown): value is AstNode {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AstNode).type === 'string' &&
    typeof (value as AstNode).start === 'number'
  );
}

/** The program node, or null when the file does not parse (then no candidate is generated). */
export function parseProgram(file: string, source: string): AstNode | null {
  return parseJsProgram(file, source) as AstNode | null;
}

/** Depth-first walk with the ancestors of each node (nearest last). */
export function walk(root: AstNode, visit: (node: AstNode, ancestors: readonly AstNode[]) => void): void {
  const ancestors: AstNode[] = [];
  const visitNode = (node: AstNode) => {
    visit(node, ancestors);
    ancestors.push(node);
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments' || key === 'extra')
        continue;
      const value = node[key];
      if (Array.isArray(value)) {
        for (const child of value) if (isNode(child)) visitNode(child);
      } else if (isNode(value)) {
        visitNode(value);
      }
    }
    ancestors.pop();
  };
  visitNode(root);
}

export function reparses(file: string, source: string): boolean {
  return parseProgram(file, source) !== null;
}
