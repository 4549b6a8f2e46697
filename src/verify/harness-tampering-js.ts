// Harness tampering in a patch's added JavaScript or TypeScript, found on the syntax tree: ending
// the process or rewriting its exit status, reaching into the test framework or the assertion
// library, reading test files at run time. Names are followed through imports and requires
// (`import p from 'node:process'`, `const { strict } = require('assert')`), so the same call under
// another name is the same call; words in strings and comments are never code. Reading the runners'
// variables and values equal to anything: harness-tampering-js-values.ts.
import { equalsAnythingHit, runnerVariableHits } from './harness-tampering-js-values.ts';
import { isJsNode, literalPath, ownLines, parseJs, stringValue, walkJs, type JsNode } from './js-tree.ts';
import type { TamperHit, TamperRule } from './tamper-hit.ts';
import { RUNNERS } from '../runners/registry.ts';

/** What an expression stands for: a module (or the global scope) and a path of members in it. */
interface Ref {
  module: string;
  path: string[];
}

const GLOBAL = '<global>';
// A runner's own assertion module (its `expect`) is among its framework's modules (src/runners/).
const ASSERTION_MODULES = new Set([
  'assert',
  'assert/strict',
  'chai',
  'expect',
  'should',
  'power-assert',
  'uvu/assert',
  'expect-type',
]);
/** The test frameworks: each runner's API as its descriptor gives it (src/runners/), then those of runners fixloop has no descriptor for. */
const FRAMEWORKS = RUNNERS.flatMap((r) => (r.framework ? [r.framework] : []));
const OTHER_FRAMEWORK_MODULES = /^(ava|tap|uvu|jasmine|bun:test|@playwright\/test)$/;
const isFrameworkModule = (module: string) =>
  OTHER_FRAMEWORK_MODULES.test(module) || FRAMEWORKS.some((f) => f.modules.test(module));
/** The frameworks' own global objects (`x.fn()`, `x.spyOn()`): a call through one reaches into the framework. */
const FRAMEWORK_GLOBALS = new Set(FRAMEWORKS.flatMap((f) => (f.global ? [f.global] : [])));
const LOADER_MODULES = new Set(['module']);
/** Members of `process` that end it, report its status, or emit its exit. */
const PROCESS_EXIT = new Set(['exit', 'reallyExit', 'abort']);
const PROCESS_STATUS = new Set(['exit', 'exitCode', 'reallyExit', 'abort', 'kill', 'emit', '_exiting']);
const PROCESS_LISTEN = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);
/** The runners' globals (vitest --globals, jest, mocha), and their frameworks' objects: a source file has no business with them. */
const TEST_GLOBALS = new Set([
  'expect',
  'assert',
  'test',
  'it',
  'describe',
  'suite',
  ...FRAMEWORK_GLOBALS,
  'beforeEach',
  'afterEach',
  'beforeAll',
  'afterAll',
  'chai',
  'should',
]);
const PLUGIN_METHODS = new Set([
  'use',
  'extend',
  'addMethod',
  'overwriteMethod',
  'addProperty',
  'overwriteProperty',
  'addChainableMethod',
  'overwriteChainableMethod',
  'addSnapshotSerializer',
]);
const REFLECTORS = new Set([
  'Object.defineProperty',
  'Object.defineProperties',
  'Object.assign',
  'Object.setPrototypeOf',
  'Reflect.set',
  'Reflect.defineProperty',
  'Reflect.deleteProperty',
  'Reflect.setPrototypeOf',
]);
const READS = new Set([
  'readFileSync',
  'readFile',
  'createReadStream',
  'openSync',
  'open',
  'readdirSync',
  'readdir',
  'opendirSync',
  'opendir',
  'readJson',
  'readJsonSync',
  'readJSON',
  'copyFileSync',
  'copyFile',
  'cpSync',
  'cp',
  'globSync',
  'glob',
]);

const bare = (module: string) => module.replace(/^node:/, '');

/**
 * Finds the hits on `added` lines; null when the file does not parse. `env`: the runners' environment
 * variables. A tree too deep to walk throws a RangeError (the caller's to report).
 */
export function findJsTampering(
  file: string,
  source: string,
  added: ReadonlySet<number>,
  env: readonly RegExp[] = [],
): TamperHit[] | null {
  const program = parseJs(file, source);
  if (!program) return null;
  const scope = scopeOf(program);
  const hits: TamperHit[] = [];
  const seen = new Set<string>();
  const report = (node: JsNode, rule: TamperRule, what: string, target?: string) => {
    if (![...ownLines(node)].some((line) => added.has(line))) return;
    const key = `${node.loc.start.line}:${rule}:${what}`;
    if (seen.has(key)) return;
    seen.add(key);
    hits.push({ line: node.loc.start.line, rule, what, ...(target !== undefined ? { target } : {}) });
  };
  const resolve = (node: unknown): Ref | null => refOf(node, scope);
  walkJs(program, (node, ancestors) => {
    switch (node.type) {
      case 'ImportDeclaration':
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
        if (node['importKind'] !== 'type' && node['exportKind'] !== 'type')
          checkModule(node, stringValue(node['source']), report);
        return;
      case 'ImportExpression':
        checkModule(node, stringValue(node['source']), report);
        return;
      case 'CallExpression':
      case 'OptionalCallExpression':
      case 'NewExpression':
        checkCall(node, resolve, report, ancestors);
        return;
      case 'AssignmentExpression':
        checkWrite(node, node['left'], 'assigns', resolve, report, ancestors);
        equalsAnythingHit(node, report);
        return;
      case 'ClassMethod':
      case 'ObjectMethod':
      case 'ObjectProperty':
      case 'ClassProperty':
        equalsAnythingHit(node, report);
        return;
      case 'UpdateExpression':
        checkWrite(node, node['argument'], 'changes', resolve, report, ancestors);
        return;
      case 'UnaryExpression':
        if (node['operator'] === 'delete') checkWrite(node, node['argument'], 'deletes', resolve, report, ancestors);
        return;
    }
  });
  runnerVariableHits(program, env, resolve, report);
  return hits;
}

type Report = (node: JsNode, rule: TamperRule, what: string, target?: string) => void;
type Resolve = (node: unknown) => Ref | null;

function checkModule(node: JsNode, specifier: string | null, report: Report): void {
  if (specifier === null) return;
  if (isFrameworkModule(bare(specifier))) report(node, 'test-framework', `imports the test framework \`${specifier}\``);
  else if (/^(\.|\/)/.test(specifier)) report(node, 'reads-tests', `loads \`${specifier}\``, specifier);
}

function checkCall(node: JsNode, resolve: Resolve, report: Report, ancestors: readonly JsNode[]): void {
  const args = (node['arguments'] as unknown[]).filter(isJsNode);
  const callee = resolve(node['callee']);
  const first = args[0];
  if (callee?.module === GLOBAL && callee.path.length === 1 && callee.path[0] === 'require') {
    checkModule(node, stringValue(first), report);
    return;
  }
  if (!callee) return;
  const [head, member] = callee.path;
  const name = callee.path.at(-1) ?? '';
  if (isProcess(callee.path.slice(0, -1), callee.module) && callee.path.length >= 1) {
    const exits = PROCESS_EXIT.has(name) || (name === 'kill' && refersToOwnPid(first, resolve));
    if (exits && !underMainGuard(ancestors)) report(node, 'exit', `calls \`process.${name}(…)\``);
    if (PROCESS_LISTEN.has(name) && ['exit', 'beforeExit'].includes(stringValue(first) ?? ''))
      report(node, 'exit', `registers a \`process.${name}('${stringValue(first)}')\` handler`);
  }
  if (callee.module === GLOBAL && REFLECTORS.has(`${head}.${member}`) && callee.path.length === 2) {
    const target = resolve(first);
    const key = stringValue(args[1]);
    if (target && isProcess(target.path, target.module) && (key === null || PROCESS_STATUS.has(key)))
      report(node, 'exit', `changes \`process\` through \`${head}.${member}\``);
    else if (target && reachesHarness(target))
      report(node, 'test-framework', `changes ${describe(target)} through \`${head}.${member}\``);
  }
  if (PLUGIN_METHODS.has(name) && callee.path.length >= 1) {
    const owner = { module: callee.module, path: callee.path.slice(0, -1) };
    if (reachesHarness(owner)) report(node, 'test-framework', `calls \`${[...displayPath(owner), name].join('.')}(…)\``);
  }
  if (callee.module === GLOBAL && head !== undefined && FRAMEWORK_GLOBALS.has(head) && callee.path.length >= 2)
    report(node, 'test-framework', `calls the test framework's \`${callee.path.join('.')}(…)\``);
  if (READS.has(name)) {
    const target = literalPath(first);
    if (target !== null) report(node, 'reads-tests', `reads \`${target}\` at run time (\`${name}\`)`, target);
  }
}

function checkWrite(
  node: JsNode,
  left: unknown,
  verb: string,
  resolve: Resolve,
  report: Report,
  ancestors: readonly JsNode[],
): void {
  if (!isJsNode(left) || !/MemberExpression$/.test(left.type)) return;
  const target = resolve(left);
  if (!target) return;
  const name = target.path.at(-1) ?? '';
  if (isProcess(target.path.slice(0, -1), target.module) && PROCESS_STATUS.has(name)) {
    if (!underMainGuard(ancestors)) report(node, 'exit', `${verb} \`process.${name}\``);
  } else if (reachesHarness(target)) {
    report(node, 'test-framework', `${verb} \`${displayPath(target).join('.')}\``);
  }
}

/** The module loader, the assertion libraries, the runners and their globals. */
function reachesHarness(ref: Ref): boolean {
  const module = bare(ref.module);
  if (ASSERTION_MODULES.has(module) || isFrameworkModule(module) || LOADER_MODULES.has(module)) return true;
  if (ref.module !== GLOBAL) return false;
  const [head, member] = ref.path;
  if (head === 'require' && (member === 'cache' || member === 'extensions')) return true;
  return head !== undefined && TEST_GLOBALS.has(head);
}

function isProcess(path: string[], module: string): boolean {
  return module === GLOBAL && path.length === 1 && path[0] === 'process';
}

function refersToOwnPid(node: JsNode | undefined, resolve: Resolve): boolean {
  const ref = resolve(node);
  return (
    ref !== null &&
    ref.module === GLOBAL &&
    ref.path.length === 2 &&
    ref.path[0] === 'process' &&
    (ref.path[1] === 'pid' || ref.path[1] === 'ppid')
  );
}

function describe(ref: Ref): string {
  return `\`${displayPath(ref).join('.') || ref.module}\``;
}

function displayPath(ref: Ref): string[] {
  return ref.module === GLOBAL ? ref.path : [ref.module, ...ref.path];
}

/**
 * Code that runs only when the file is the program itself, never when a test imports it:
 * exactly `if (require.main === module)` or `if (import.meta.main)`.
 */
function underMainGuard(ancestors: readonly JsNode[]): boolean {
  return ancestors.some(
    (node, i) => node.type === 'IfStatement' && ancestors[i + 1] === node['consequent'] && isMainTest(node['test']),
  );
}

function isMainTest(test: unknown): boolean {
  if (!isJsNode(test)) return false;
  if (
    test.type === 'MemberExpression' &&
    isJsNode(test['object']) &&
    test['object'].type === 'MetaProperty' &&
    (test['property'] as JsNode | undefined)?.['name'] === 'main'
  )
    return true;
  if (test.type !== 'BinaryExpression' || (test['operator'] !== '===' && test['operator'] !== '==')) return false;
  const sides = [test['left'], test['right']].filter(isJsNode);
  const isRequireMain = (n: JsNode) =>
    n.type === 'MemberExpression' &&
    (n['object'] as JsNode)['name'] === 'require' &&
    (n['property'] as JsNode)['name'] === 'main';
  return sides.some(isRequireMain) && sides.some((n) => n.type === 'Identifier' && n['name'] === 'module');
}

/** Names the file binds: to modules or their members, to `process`, or to its own values. */
interface Scope {
  bindings: Map<string, Ref>;
  /** Every name the file declares (variables, functions, classes, parameters): never a global. */
  declared: Set<string>;
}

function scopeOf(program: JsNode): Scope {
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
function refOf(node: unknown, scope: Scope): Ref | null {
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
