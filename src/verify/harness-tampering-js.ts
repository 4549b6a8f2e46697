// Harness tampering in a patch's added JavaScript or TypeScript, found on the syntax tree: ending
// the process or rewriting its exit status, reaching into the test framework or the assertion
// library, reading test files at run time. Names are followed through imports and requires
// (`import p from 'node:process'`, `const { strict } = require('assert')`), so the same call under
// another name is the same call (js-references.ts); words in strings and comments are never code.
// Reading the runners' variables and values equal to anything: harness-tampering-js-values.ts; comparing
// with a runner's values and its equality protocol: harness-tampering-js-runner.ts.
import { equalsAnythingHit, runnerVariableHits } from './harness-tampering-js-values.ts';
import { NO_TRAITS, runnerEqualityHits, runnerValueHits, type RunnerTraits } from './harness-tampering-js-runner.ts';
import { bare, GLOBAL, refOf, scopeOf, type Ref } from '../core/js-references.ts';
import { underMainGuard } from './js-main-guard.ts';
import { isJsNode, literalPath, ownLines, parseJs, stringValue, walkJs, type JsNode } from '../core/js-tree.ts';
import type { TamperHit, TamperRule } from './tamper-hit.ts';
import { RUNNERS } from '../runners/registry.ts';

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

/**
 * Finds the hits on `added` lines; null when the file does not parse. `runners`: what the runners give
 * their tests (variables, values, an equality protocol). A tree too deep to walk throws a RangeError
 * (the caller's to report).
 */
export function findJsTampering(
  file: string,
  source: string,
  added: ReadonlySet<number>,
  runners: RunnerTraits = NO_TRAITS,
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
  runnerVariableHits(program, runners.env, resolve, report);
  runnerValueHits(program, runners.values, resolve, report);
  runnerEqualityHits(program, runners.hooks, report);
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
    else if (target && ofSharedPrototype(target, 0))
      report(node, 'test-framework', `changes \`Object.prototype\` through \`${head}.${member}\`${SHARED}`);
  }
  if (callee.module === GLOBAL && ofSharedPrototype(callee, 1) && /^__define[GS]etter__$/.test(name))
    report(node, 'test-framework', `calls \`Object.prototype.${name}(…)\`${SHARED}`);
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
  } else if (ofSharedPrototype(target, 1)) {
    report(node, 'test-framework', `${verb} \`${target.path.join('.')}\`${SHARED}`);
  }
}

/** Why a write to Object.prototype reaches the harness: the runner's and the assertion library's objects inherit it. */
const SHARED = ", a property every object inherits (the runner's and the assertion library's too)";

/**
 * `Object.prototype` followed by `below` more names (0: the prototype itself; 1: one of its
 * properties): what every object inherits, so a property defined there reaches into the runner's
 * and the assertion library's objects (a setter that catches a field they write).
 */
function ofSharedPrototype(ref: Ref, below: number): boolean {
  return ref.module === GLOBAL && ref.path.length === 2 + below && ref.path[0] === 'Object' && ref.path[1] === 'prototype';
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
