// Names in scope at a point of a JS/TS program, split by kind (functions vs other values), for the
// identifier-replacement template. An approximation: the parameters and declarations of the enclosing
// functions and of the module, declared before the point or hoisted.
import { isNode, walk, type AstNode } from './ast.ts';

export interface ScopeNames {
  values: string[];
  functions: string[];
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ObjectMethod', 'ClassMethod', 'ClassPrivateMethod']);

function patternNames(pattern: unknown, out: Set<string>): void {
  if (!isNode(pattern)) return;
  if (pattern.type === 'Identifier') out.add(pattern.name as string);
  else if (pattern.type === 'AssignmentPattern') patternNames(pattern.left, out);
  else if (pattern.type === 'RestElement') patternNames(pattern.argument, out);
  else if (pattern.type === 'TSParameterProperty') patternNames(pattern.parameter, out);
  else if (pattern.type === 'ArrayPattern') for (const e of pattern.elements as unknown[]) patternNames(e, out);
  else if (pattern.type === 'ObjectPattern') for (const p of pattern.properties as AstNode[]) patternNames(p.type === 'RestElement' ? p : p.value, out);
}

/** Declarations directly owned by a function (or the program), not by nested functions. */
function ownDeclarations(owner: AstNode, before: number): ScopeNames {
  const values = new Set<string>();
  const functions = new Set<string>();
  if (FUNCTION_TYPES.has(owner.type)) for (const p of (owner.params as unknown[]) ?? []) patternNames(p, values);
  const body = owner.type === 'Program' ? owner : owner.body;
  if (!isNode(body)) return { values: [...values], functions: [...functions] };
  walk(body, (node, ancestors) => {
    if (ancestors.some((a) => a !== owner && a !== body && FUNCTION_TYPES.has(a.type))) return;
    if (node.type === 'FunctionDeclaration' && isNode(node.id)) functions.add(node.id.name as string);
    if (node.type === 'VariableDeclarator' && node.start < before) {
      const init = node.init;
      if (isNode(init) && (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression') && isNode(node.id)) functions.add(node.id.name as string);
      else patternNames(node.id, values);
    }
    if ((node.type === 'ImportSpecifier' || node.type === 'ImportDefaultSpecifier' || node.type === 'ImportNamespaceSpecifier') && isNode(node.local)) {
      values.add(node.local.name as string);
      functions.add(node.local.name as string);
    }
    if ((node.type === 'ForOfStatement' || node.type === 'ForInStatement') && isNode(node.left) && node.left.type === 'VariableDeclaration') {
      for (const d of node.left.declarations as AstNode[]) patternNames(d.id, values);
    }
  });
  return { values: [...values], functions: [...functions] };
}

export function namesInScope(program: AstNode, ancestors: readonly AstNode[], position: number): ScopeNames {
  const values = new Set<string>();
  const functions = new Set<string>();
  for (const owner of [program, ...ancestors.filter((a) => FUNCTION_TYPES.has(a.type))]) {
    const own = ownDeclarations(owner, position);
    for (const v of own.values) values.add(v);
    for (const f of own.functions) functions.add(f);
  }
  return { values: [...values].sort(), functions: [...functions].sort() };
}
