// How a probed function's body can name the function itself, so the probe can call it again on
// generated inputs (`isAbsolute`, `exports.parse`, `module.exports.join`, `Parser.prototype.read`). Evaluated lazily, inside
// the function, only when the probe generates: a name the function's own parameters or declarations
// hide would name something else, so then there is no self reference and no generated input.
import { isJsNode, walkJs, type JsNode } from '../../core/js-tree.ts';
import { holder, keyName, memberChain } from './probe-functions.ts';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function asNode(value: unknown): JsNode | undefined {
  return isJsNode(value) ? value : undefined;
}

/** The plain-name path by which the module reaches a value (a function or an object literal). */
function valuePath(node: JsNode, ancestors: readonly JsNode[]): string[] | null {
  const { parent, child, above } = holder(node, ancestors);
  if (!parent) return null;
  if (parent.type === 'VariableDeclarator' && parent['init'] === child) {
    const id = asNode(parent['id']);
    return id?.type === 'Identifier' ? [id['name'] as string] : null;
  }
  if (parent.type === 'AssignmentExpression' && parent['right'] === child) {
    const chain = memberChain(asNode(parent['left']));
    return chain && chain[0] !== 'this' ? chain : null;
  }
  if (parent.type === 'ObjectProperty' && parent['value'] === child) return propertyPath(parent, above);
  return null;
}

/** `api.f` for a property or method `f` of an object literal the module names `api`. */
function propertyPath(property: JsNode, ancestors: readonly JsNode[]): string[] | null {
  const object = ancestors[ancestors.length - 1];
  const key = keyName(property);
  if (!object || object.type !== 'ObjectExpression' || key === null || !IDENTIFIER.test(key) || property['computed'] === true)
    return null;
  const path = valuePath(object, ancestors.slice(0, -1));
  return path ? [...path, key] : null;
}

/** The names a function's parameters and body declare (conservatively: any binding at any depth). */
function declaredNames(fn: JsNode): Set<string> {
  const names = new Set<string>();
  const collect = (pattern: JsNode | undefined) => {
    if (!pattern) return;
    walkJs(pattern, (inner) => {
      if (inner.type === 'Identifier') names.add(inner['name'] as string);
    });
  };
  for (const param of (fn['params'] as unknown[] | undefined) ?? []) collect(asNode(param));
  const body = asNode(fn['body']);
  if (body) {
    walkJs(body, (inner) => {
      if (inner.type === 'VariableDeclarator') collect(asNode(inner['id']));
      if (inner.type === 'FunctionDeclaration' || inner.type === 'ClassDeclaration') collect(asNode(inner['id']));
      if (inner.type === 'CatchClause') collect(asNode(inner['param']));
    });
  }
  return names;
}

/**
 * `C.prototype.m` for a method `m` of a class the module names `C` (`C.m` for a static one): the
 * method as its class defines it, called by the probe on a copy of the receiver (probe-held.cjs).
 * Getters, setters, constructors, private and computed members have no such name.
 */
function classMethodPath(method: JsNode, ancestors: readonly JsNode[]): string[] | null {
  const key = keyName(method);
  const body = ancestors[ancestors.length - 1];
  const owner = ancestors[ancestors.length - 2];
  if (method['kind'] !== 'method' || method['computed'] === true || key === null || !IDENTIFIER.test(key)) return null;
  if (body?.type !== 'ClassBody' || !owner) return null;
  const id = asNode(owner['id']);
  // A class's own name is bound inside its body, a class expression's too.
  const named =
    (owner.type === 'ClassDeclaration' || owner.type === 'ClassExpression') && id?.type === 'Identifier'
      ? [id['name'] as string]
      : owner.type === 'ClassExpression'
        ? valuePath(owner, ancestors.slice(0, -2))
        : null;
  if (!named) return null;
  return method['static'] === true ? [...named, key] : [...named, 'prototype', key];
}

/** The expression that names `fn` from inside its own body, or null when there is none. */
export function selfExpression(fn: JsNode, ancestors: readonly JsNode[]): string | null {
  let path: string[] | null = null;
  const id = asNode(fn['id']);
  if ((fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression') && id) path = [id['name'] as string];
  else if (fn.type === 'ClassMethod') path = classMethodPath(fn, ancestors);
  else if (fn.type === 'ObjectMethod') path = propertyPath(fn, ancestors);
  else if (fn.type === 'FunctionExpression' || fn.type === 'ArrowFunctionExpression') path = valuePath(fn, ancestors);
  const root = path?.[0];
  if (!path || root === undefined || declaredNames(fn).has(root)) return null;
  return path.join('.');
}
