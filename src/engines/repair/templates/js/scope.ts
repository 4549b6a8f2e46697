// Names in scope at a point of a JS/TS program, split by kind (functions vs other values), for the
// identifier-replacement template. An approximation: the parameters and declarations of the enclosing
// functions and of the module, declared before the point or hoisted.
import { childrenOf, isJsNode, type JsNode, WITH_TYPES } from '../../../../core/js-tree.ts';

export interface ScopeNames {
  values: string[];
  functions: string[];
}

const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
]);

function patternNames(pattern: unknown, out: Set<string>): void {
  if (!isJsNode(pattern)) return;
  if (pattern.type === 'Identifier') out.add(pattern.name as string);
  else if (pattern.type === 'AssignmentPattern') patternNames(pattern.left, out);
  else if (pattern.type === 'RestElement') patternNames(pattern.argument, out);
  else if (pattern.type === 'TSParameterProperty') patternNames(pattern.parameter, out);
  else if (pattern.type === 'ArrayPattern') for (const e of pattern.elements as unknown[]) patternNames(e, out);
  else if (pattern.type === 'ObjectPattern')
    for (const p of pattern.properties as JsNode[]) patternNames(p.type === 'RestElement' ? p : p.value, out);
}

/** A declared name; `from` is where it becomes visible (null: everywhere in its owner, hoisted). */
interface Declared {
  name: string;
  from: number | null;
}

interface OwnDeclarations {
  values: Declared[];
  functions: Declared[];
}

// One walk per owner, reused for every identifier in it: walking the whole program again for each
// identifier made candidate generation quadratic in the file's size (minutes on a 5,000-line file).
const declarationsByOwner = new WeakMap<JsNode, OwnDeclarations>();

/** Declarations directly owned by a function (or the program), not by nested functions. */
function ownDeclarations(owner: JsNode): OwnDeclarations {
  const cached = declarationsByOwner.get(owner);
  if (cached) return cached;
  const own: OwnDeclarations = { values: [], functions: [] };
  const value = (name: string, from: number | null = null) => own.values.push({ name, from });
  const fn = (name: string, from: number | null = null) => own.functions.push({ name, from });
  if (FUNCTION_TYPES.has(owner.type)) {
    const params = new Set<string>();
    for (const p of (owner.params as unknown[]) ?? []) patternNames(p, params);
    for (const name of params) value(name);
  }
  const body = owner.type === 'Program' ? owner : owner.body;
  if (isJsNode(body))
    walkOwn(body, (node) => {
      if (node.type === 'FunctionDeclaration' && isJsNode(node.id)) fn(node.id.name as string);
      if (node.type === 'VariableDeclarator') {
        const init = node.init;
        if (
          isJsNode(init) &&
          (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression') &&
          isJsNode(node.id)
        )
          fn(node.id.name as string, node.start);
        else {
          const names = new Set<string>();
          patternNames(node.id, names);
          for (const name of names) value(name, node.start);
        }
      }
      if (node.type === 'ImportDeclaration' && node.importKind !== 'type')
        for (const specifier of node.specifiers as JsNode[]) {
          // `import { type A }` and `import type { A }` bind a type, no value: TypeScript erases them,
          // and a candidate naming one throws a ReferenceError at run time.
          if (specifier.importKind === 'type' || !isJsNode(specifier.local)) continue;
          value(specifier.local.name as string);
          fn(specifier.local.name as string);
        }
      if (
        (node.type === 'ForOfStatement' || node.type === 'ForInStatement') &&
        isJsNode(node.left) &&
        node.left.type === 'VariableDeclaration'
      ) {
        const names = new Set<string>();
        for (const d of node.left.declarations as JsNode[]) patternNames(d.id, names);
        for (const name of names) value(name);
      }
    });
  declarationsByOwner.set(owner, own);
  return own;
}

/** Visits `root` and its descendants, entering no nested function (whose node itself is visited). */
function walkOwn(root: JsNode, visit: (node: JsNode) => void): void {
  const visitNode = (node: JsNode, top: boolean) => {
    visit(node);
    if (!top && FUNCTION_TYPES.has(node.type)) return;
    for (const child of childrenOf(node, WITH_TYPES)) visitNode(child, false);
  };
  visitNode(root, true);
}

const visibleAt = (position: number) => (d: Declared) => d.from === null || d.from < position;

export function namesInScope(program: JsNode, ancestors: readonly JsNode[], position: number): ScopeNames {
  const values = new Set<string>();
  const functions = new Set<string>();
  for (const owner of [program, ...ancestors.filter((a) => FUNCTION_TYPES.has(a.type))]) {
    const own = ownDeclarations(owner);
    for (const v of own.values.filter(visibleAt(position))) values.add(v.name);
    for (const f of own.functions.filter(visibleAt(position))) functions.add(f.name);
  }
  return { values: [...values].sort(), functions: [...functions].sort() };
}
