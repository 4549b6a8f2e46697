// Which functions of a JavaScript or TypeScript file the assessment probes, and the names that make
// their ids. A name comes from the code around the function, never from its line, so the original
// and the patched version of a file give the same function the same id even when lines moved.
import { isJsNode, walkJs, type JsNode } from '../../core/js-tree.ts';

const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
]);
/** Wrappers that leave a function expression the value of what holds it (`const f = ((x) => x) as F`). */
const TRANSPARENT = new Set([
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
  'TSTypeAssertion',
  'ParenthesizedExpression',
]);

/** A function of the file with a body the probe can wrap. */
export interface NamedFunction {
  node: JsNode;
  /** `isAbsolute`, `Parser.parse`, `outer.inner`; unique in the file (`f#2` for a true duplicate). */
  qualifiedName: string;
  /** The nodes around it, outermost first. */
  ancestors: readonly JsNode[];
}

export function isFunctionNode(node: JsNode): boolean {
  return FUNCTION_TYPES.has(node.type) && isJsNode(node['body']);
}

/**
 * Getters, setters, constructors and async generators: the probe leaves them (and what they contain)
 * alone. A generator is probed through what it yields (probe-generator.cjs).
 */
export function isSkippedFunction(node: JsNode): boolean {
  const kind = node['kind'];
  return (node['generator'] === true && node['async'] === true) || (typeof kind === 'string' && kind !== 'method');
}

function asNode(value: unknown): JsNode | undefined {
  return isJsNode(value) ? value : undefined;
}

/** The name a property key gives: `f`, `'a-b'` as `a-b`, `#secret`; null for a computed key. */
export function keyName(owner: JsNode): string | null {
  const key = asNode(owner['key']);
  if (!key || (owner['computed'] === true && key.type !== 'StringLiteral' && key.type !== 'NumericLiteral')) return null;
  if (key.type === 'Identifier') return key['name'] as string;
  if (key.type === 'StringLiteral' || key.type === 'NumericLiteral') return String(key['value']);
  if (key.type === 'PrivateName') return `#${(asNode(key['id'])?.['name'] as string | undefined) ?? ''}`;
  return null;
}

/** `a.b.c` for a chain of plain names, else null. */
export function memberChain(node: JsNode | undefined): string[] | null {
  if (!node) return null;
  if (node.type === 'Identifier') return [node['name'] as string];
  if (node.type === 'ThisExpression') return ['this'];
  if (node.type !== 'MemberExpression' || node['computed'] === true) return null;
  const object = memberChain(asNode(node['object']));
  const property = asNode(node['property']);
  return object && property?.type === 'Identifier' ? [...object, property['name'] as string] : null;
}

/** What an assignment target names: `exports.f` → `f`, `Foo.prototype.bar` → `Foo.bar`, `this.x` → `x`. */
function assignedName(left: JsNode | undefined): string | null {
  const chain = memberChain(left);
  if (!chain) return null;
  const start = chain[0] === 'module' && chain[1] === 'exports' ? 2 : chain[0] === 'exports' || chain[0] === 'this' ? 1 : 0;
  const parts = chain.slice(start).filter((part) => part !== 'prototype');
  return parts.length > 0 ? parts.join('.') : null;
}

/** The nearest ancestor that is not a transparent wrapper, the node (or wrapper) it holds, and the ancestors above it. */
export function holder(
  node: JsNode,
  ancestors: readonly JsNode[],
): { parent: JsNode | undefined; child: JsNode; above: readonly JsNode[] } {
  let child = node;
  for (let index = ancestors.length - 1; index >= 0; index--) {
    const parent = ancestors[index];
    if (parent && TRANSPARENT.has(parent.type)) {
      child = parent;
      continue;
    }
    return { parent, child, above: ancestors.slice(0, index) };
  }
  return { parent: undefined, child, above: [] };
}

/** The name a value (a function or an object literal) takes from what holds it; null when none. */
function valueName(node: JsNode, ancestors: readonly JsNode[]): string | null {
  const { parent, child } = holder(node, ancestors);
  if (!parent) return null;
  if (parent.type === 'VariableDeclarator' && parent['init'] === child) {
    const id = asNode(parent['id']);
    return id?.type === 'Identifier' ? (id['name'] as string) : null;
  }
  if (parent.type === 'AssignmentExpression' && parent['right'] === child) return assignedName(asNode(parent['left']));
  if (
    (parent.type === 'ObjectProperty' || parent.type === 'ClassProperty' || parent.type === 'ClassPrivateProperty') &&
    parent['value'] === child
  )
    return keyName(parent);
  if (parent.type === 'ExportDefaultDeclaration') return 'default';
  return null;
}

/** A function's own name (without its containers), or null for an anonymous one. */
export function ownName(node: JsNode, ancestors: readonly JsNode[]): string | null {
  if (node.type === 'ObjectMethod' || node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod') return keyName(node);
  const id = asNode(node['id']);
  if (node.type === 'FunctionDeclaration') return id ? (id['name'] as string) : 'default';
  const fromHolder = valueName(node, ancestors);
  if (fromHolder !== null) return fromHolder;
  if (id) return id['name'] as string;
  // `module.exports = function () {}`: the assignment names nothing but the module itself.
  const { parent } = holder(node, ancestors);
  return parent?.type === 'AssignmentExpression' && memberChain(asNode(parent['left']))?.join('.') === 'module.exports'
    ? 'module.exports'
    : null;
}

/** The name a class or object literal gives the functions inside it; null when it gives none. */
function containerName(node: JsNode, ancestors: readonly JsNode[]): string | null {
  if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
    const id = asNode(node['id']);
    return id ? (id['name'] as string) : valueName(node, ancestors);
  }
  if (node.type === 'ObjectExpression') return valueName(node, ancestors);
  if (isFunctionNode(node)) return ownName(node, ancestors);
  return null;
}

/**
 * Every named function of the program that the probe could wrap, in source order, with its unique
 * qualified name: the names of the named functions, classes and object literals around it, then its
 * own. A second function with the same qualified name gets `#2`, and so on.
 */
export function namedFunctions(program: JsNode): NamedFunction[] {
  const found: NamedFunction[] = [];
  const seen = new Map<string, number>();
  walkJs(program, (node, ancestors) => {
    if (!isFunctionNode(node) || isSkippedFunction(node)) return;
    const own = ownName(node, ancestors);
    if (own === null) return;
    const containers: string[] = [];
    ancestors.forEach((ancestor, index) => {
      const name = containerName(ancestor, ancestors.slice(0, index));
      if (name !== null) containers.push(name);
    });
    const base = [...containers, own].join('.');
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    found.push({ node, qualifiedName: count === 1 ? base : `${base}#${count}`, ancestors: [...ancestors] });
  });
  return found;
}

/**
 * The functions to probe for the changed lines: for each line, the innermost named function that
 * contains it. Anonymous callbacks belong to the named function around them; a line inside a
 * getter, setter, constructor or async generator selects nothing. A line of a top-level declaration
 * outside any function (`const PROTOCOL_REGEX = /…/`) selects the functions of the file that read a
 * name it declares: what the changed value changes is their results.
 */
export function functionsForLines(
  program: JsNode,
  functions: readonly NamedFunction[],
  lines: ReadonlySet<number>,
): NamedFunction[] {
  const byNode = new Map(functions.map((fn) => [fn.node, fn]));
  const all: Array<{ node: JsNode; ancestors: JsNode[] }> = [];
  walkJs(program, (node, ancestors) => {
    if (isFunctionNode(node)) all.push({ node, ancestors: [...ancestors] });
  });
  const chosen = new Set<NamedFunction>();
  for (const fn of functionsReading(functions, namesDeclaredOn(program, lines, all))) chosen.add(fn);
  for (const line of lines) {
    const containing = all.filter(({ node }) => line >= node.loc.start.line && line <= node.loc.end.line);
    // Innermost: contains no other function that holds the line (two on one line are both innermost).
    const innermost = containing.filter(
      ({ node }) =>
        !containing.some((other) => other.node !== node && other.node.start >= node.start && other.node.end <= node.end),
    );
    for (const { node, ancestors } of innermost) {
      const target = [...ancestors, node]
        .reverse()
        .find((candidate) => isFunctionNode(candidate) && (isSkippedFunction(candidate) || byNode.has(candidate)));
      const named = target ? byNode.get(target) : undefined;
      if (named) chosen.add(named);
    }
  }
  return functions.filter((fn) => chosen.has(fn));
}

/** Names declared by the top-level variable declarations on `lines` that no function holds. */
function namesDeclaredOn(program: JsNode, lines: ReadonlySet<number>, functions: ReadonlyArray<{ node: JsNode }>): Set<string> {
  const names = new Set<string>();
  const outside = [...lines].filter(
    (line) => !functions.some(({ node }) => line >= node.loc.start.line && line <= node.loc.end.line),
  );
  for (const statement of ((program['body'] as unknown[] | undefined) ?? []).filter(isJsNode)) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? asNode(statement['declaration']) : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    if (!outside.some((line) => line >= statement.loc.start.line && line <= statement.loc.end.line)) continue;
    for (const declarator of ((declaration['declarations'] as unknown[] | undefined) ?? []).filter(isJsNode)) {
      const id = asNode(declarator['id']);
      const init = asNode(declarator['init']);
      // A function value is probed as itself; what is probed here is the functions that read a value.
      if (id?.type === 'Identifier' && !(init && isFunctionNode(init))) names.add(id['name'] as string);
    }
  }
  return names;
}

/** The named functions whose body reads one of `names` (by name: a shadowing local counts too, which only probes more). */
function functionsReading(functions: readonly NamedFunction[], names: ReadonlySet<string>): NamedFunction[] {
  if (names.size === 0) return [];
  return functions.filter((fn) => {
    let reads = false;
    const body = asNode(fn.node['body']);
    if (body)
      walkJs(body, (node) => {
        if (node.type === 'Identifier' && names.has(node['name'] as string)) reads = true;
      });
    return reads;
  });
}
