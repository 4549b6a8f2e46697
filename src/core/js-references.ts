// What an expression in JavaScript or TypeScript stands for: a member chain on a module, on
// `process`, or on the global scope. Names are followed through imports and requires
// (`import p from 'node:process'`, `const { strict } = require('assert')`), so the same member
// under another name is the same member; a name the file declares itself is never a global.
// Beside the syntax tree (js-tree.ts), for every stage: the judge's harness tampering checks
// (src/verify/harness-tampering-js.ts) ask it what each call and write reaches.
import { isJsNode, stringValue, walkJs, type JsNode } from './js-tree.ts';

/** What an expression stands for: a module (or the global scope) and a path of members in it. */
export interface Ref {
  module: string;
  path: string[];
}

/** The module name of the global scope in a ref (`process`, `require`, the runners' globals). */
export const GLOBAL = '<global>';

/** A module's name without its `node:` prefix: `node:assert` is `assert`. */
export const bare = (module: string) => module.replace(/^node:/, '');

/** Names the file binds: to modules or their members, to `process`, or to its own values. */
export interface Scope {
  bindings: Map<string, Ref>;
  /** Every name the file declares (variables, functions, classes, parameters): never a global. */
  declared: Set<string>;
}

/** The file's bindings and the names it declares, read from its whole tree before any check asks. */
export function scopeOf(program: JsNode): Scope {
  const scope: Scope = { bindings: new Map(), declared: new Set() };
  const moduleRef = (specifier: string, path: string[] = []): Ref =>
    bare(specifier) === 'process' ? { module: GLOBAL, path: ['process', ...path] } : { module: bare(specifier), path };
  walkJs(program, (node) => {
    if (node.type === 'VariableDeclarator') declareNames(node['id'], scope.declared);
    if (/Function|ClassDeclaration|ClassExpression|Method/.test(node.type)) {
      declareNames(node['id'], scope.declared);
      for (const param of (node['params'] as unknown[] | undefined) ?? []) declareNames(param, scope.declared);
    }
    if (node.type === 'CatchClause') declareNames(node['param'], scope.declared);
  });
  // Two passes, so an alias declared after what it aliases is still followed.
  for (let pass = 0; pass < 2; pass++) {
    walkJs(program, (node) => {
      if (node.type === 'ImportDeclaration') {
        const specifier = stringValue(node['source']);
        if (specifier === null) return;
        for (const spec of (node['specifiers'] as JsNode[]) ?? []) {
          const local = (spec['local'] as JsNode)['name'] as string;
          const imported =
            spec.type === 'ImportSpecifier'
              ? (((spec['imported'] as JsNode)['name'] ?? (spec['imported'] as JsNode)['value']) as string)
              : null;
          scope.bindings.set(local, moduleRef(specifier, imported && imported !== 'default' ? [imported] : []));
        }
      } else if (node.type === 'VariableDeclarator' && isJsNode(node['id'])) {
        const init = refOf(node['init'], scope);
        if (!init) return;
        const id = node['id'];
        if (id.type === 'Identifier') scope.bindings.set(id['name'] as string, init);
        if (id.type === 'ObjectPattern') {
          for (const prop of (id['properties'] as JsNode[]) ?? []) {
            const key = prop['key'] as JsNode | undefined;
            const value = prop['value'] as JsNode | undefined;
            const name = key ? ((key['name'] ?? key['value']) as string | undefined) : undefined;
            if (prop.type === 'ObjectProperty' && name && value?.type === 'Identifier')
              scope.bindings.set(value['name'] as string, { module: init.module, path: [...init.path, name] });
          }
        }
      }
    });
  }
  return scope;
}

/** The identifiers a binding pattern declares (`a`, `{ a, b: [c] }`, `...d`, `e = 1`). */
function declareNames(pattern: unknown, into: Set<string>): void {
  if (!isJsNode(pattern)) return;
  if (pattern.type === 'Identifier') into.add(pattern['name'] as string);
  else if (pattern.type === 'ObjectPattern')
    for (const prop of pattern['properties'] as JsNode[])
      declareNames(prop.type === 'RestElement' ? prop['argument'] : prop['value'], into);
  else if (pattern.type === 'ArrayPattern') for (const element of pattern['elements'] as unknown[]) declareNames(element, into);
  else if (pattern.type === 'RestElement') declareNames(pattern['argument'], into);
  else if (pattern.type === 'AssignmentPattern') declareNames(pattern['left'], into);
  else if (pattern.type === 'TSParameterProperty') declareNames(pattern['parameter'], into);
}

/** What an expression refers to: a member chain on a module, on `process`, or on the global scope. */
export function refOf(node: unknown, scope: Scope): Ref | null {
  if (!isJsNode(node)) return null;
  switch (node.type) {
    case 'Identifier': {
      const name = node['name'] as string;
      const bound = scope.bindings.get(name);
      if (bound) return bound;
      // `process` is the process whatever a parameter somewhere is called: shadowing it hides nothing.
      if (scope.declared.has(name) && name !== 'process' && name !== 'globalThis') return null;
      return ['globalThis', 'global', 'window', 'self'].includes(name)
        ? { module: GLOBAL, path: [] }
        : { module: GLOBAL, path: [name] };
    }
    case 'MemberExpression':
    case 'OptionalMemberExpression': {
      const object = refOf(node['object'], scope);
      if (!object) return null;
      const property = node['property'] as JsNode;
      const name = node['computed'] ? (stringValue(property) ?? '*') : ((property['name'] as string | undefined) ?? '*');
      return { module: object.module, path: [...object.path, name] };
    }
    case 'CallExpression': {
      const callee = node['callee'] as JsNode;
      const specifier = stringValue((node['arguments'] as unknown[])[0]);
      if (callee.type === 'Identifier' && callee['name'] === 'require' && !scope.declared.has('require') && specifier !== null) {
        return bare(specifier) === 'process' ? { module: GLOBAL, path: ['process'] } : { module: bare(specifier), path: [] };
      }
      return null;
    }
    case 'AwaitExpression':
      return refOf(node['argument'], scope);
    case 'ImportExpression': {
      const specifier = stringValue(node['source']);
      if (specifier === null) return null;
      return bare(specifier) === 'process' ? { module: GLOBAL, path: ['process'] } : { module: bare(specifier), path: [] };
    }
    case 'TSNonNullExpression':
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSTypeAssertion':
    case 'ParenthesizedExpression':
      return refOf(node['expression'], scope);
    default:
      return null;
  }
}
