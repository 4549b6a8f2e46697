// Where the failing tests of a JavaScript or TypeScript project enter the program: the repository's
// own modules their files import or require, and the modules those import in turn (one level: an
// `index.js` that re-exports `lib/x.js`), and in those the functions the test files call by name. A test file is the one the runner named, else
// a test file whose text holds the failing test's name (mocha names no file).
import { dirname, join, normalize } from 'node:path';
import type { TestCaseResult } from '../../core/test-report.ts';
import { isJsNode, JS_SOURCE, parseJs, stringValue, walkJs, type JsNode } from '../js-tree.ts';
import { namedFunctions } from './js-probe-functions.ts';
import type { EntrySources } from './py-entry-points.ts';

const EXTENSIONS = ['', '.js', '.cjs', '.mjs', '.ts', '.cts', '.mts', '/index.js', '/index.cjs', '/index.mjs', '/index.ts'];

export interface JsEntrySources extends EntrySources {
  /** The repository's test files (paths from its root). */
  testFiles: () => Promise<string[]>;
}

/** Path → the first lines of the functions the failing tests call there. */
export async function jsEntryPoints(fixed: readonly TestCaseResult[], sources: JsEntrySources): Promise<Map<string, Set<number>>> {
  const called = new Set<string>();
  const modules = new Set<string>();
  for (const file of await failingTestFiles(fixed, sources)) {
    const program = parseJs(file, (await sources.read(file)) ?? '');
    if (!program) continue;
    const found = importsAndCalls(program);
    for (const name of found.called) called.add(name);
    for (const specifier of found.specifiers) {
      const resolved = await resolveModule(dirname(file), specifier, sources);
      if (resolved) modules.add(resolved);
    }
  }
  const entries = new Map<string, Set<number>>();
  for (const path of await withReexported([...modules], sources)) {
    const program = parseJs(path, (await sources.read(path)) ?? '');
    if (!program) continue;
    const lines = new Set(namedFunctions(program).filter((fn) => called.has(fn.qualifiedName) || called.has(fn.qualifiedName.split('.').at(-1) ?? '')).map((fn) => fn.node.loc.start.line));
    if (lines.size > 0) entries.set(path, lines);
  }
  return entries;
}

async function failingTestFiles(fixed: readonly TestCaseResult[], sources: JsEntrySources): Promise<string[]> {
  const named = new Set(fixed.flatMap((t) => (t.file && JS_SOURCE.test(t.file) ? [t.file] : [])));
  const unnamed = fixed.filter((t) => !t.file).map((t) => t.name);
  if (unnamed.length > 0) {
    for (const file of await sources.testFiles()) {
      if (!JS_SOURCE.test(file)) continue;
      const text = (await sources.read(file)) ?? '';
      if (unnamed.some((name) => text.includes(name))) named.add(file);
    }
  }
  return [...named];
}

/** Relative specifiers the program imports or requires, and the names it calls (`f()`, `x.f()`). */
function importsAndCalls(program: JsNode): { specifiers: string[]; called: string[] } {
  const specifiers: string[] = [];
  const called: string[] = [];
  walkJs(program, (node) => {
    if (node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration' || node.type === 'ExportNamedDeclaration') {
      const source = stringValue(node['source']);
      if (source) specifiers.push(source);
    }
    if (node.type !== 'CallExpression') return;
    const callee = node['callee'];
    if (!isJsNode(callee)) return;
    const args = (node['arguments'] as unknown[] | undefined) ?? [];
    if (callee.type === 'Identifier' && callee['name'] === 'require') {
      const source = stringValue(args[0]);
      if (source) specifiers.push(source);
    } else if (callee.type === 'Import') {
      const source = stringValue(args[0]);
      if (source) specifiers.push(source);
    } else if (callee.type === 'Identifier') {
      called.push(callee['name'] as string);
    } else if (callee.type === 'MemberExpression' && callee['computed'] !== true && isJsNode(callee['property'])) {
      called.push(callee['property']['name'] as string);
    }
  });
  return { specifiers: specifiers.filter((s) => s.startsWith('.')), called };
}

/** A relative specifier as the repository's file it names: the path, an extension, an index, or a folder's package.json `main`. */
async function resolveModule(from: string, specifier: string, sources: EntrySources): Promise<string | null> {
  const base = normalize(join(from, specifier)).replace(/\/$/, '');
  if (base.startsWith('..')) return null;
  const main = await packageMain(base, sources);
  const candidates = [...(main ? [normalize(join(base, main))] : []), ...EXTENSIONS.map((ext) => `${base === '.' ? '' : base}${ext}`.replace(/^\//, ''))];
  for (const candidate of candidates) {
    for (const path of [candidate, ...EXTENSIONS.slice(1).map((ext) => `${candidate}${ext}`)]) {
      if (JS_SOURCE.test(path) && sources.usable(path) && (await sources.read(path)) !== null) return path;
    }
  }
  return null;
}

async function packageMain(folder: string, sources: EntrySources): Promise<string | null> {
  const text = await sources.read(join(folder, 'package.json'));
  if (text === null) return null;
  try {
    const main = (JSON.parse(text) as { main?: unknown }).main;
    return typeof main === 'string' ? main : null;
  } catch {
    return null;
  }
}

/** The modules, then, one level down, the repository's modules they import (`module.exports = require('./lib/x')` among them). */
async function withReexported(modules: string[], sources: EntrySources): Promise<string[]> {
  const all = new Set(modules);
  for (const path of modules) {
    const program = parseJs(path, (await sources.read(path)) ?? '');
    if (!program) continue;
    for (const specifier of importsAndCalls(program).specifiers) {
      const resolved = await resolveModule(dirname(path), specifier, sources);
      if (resolved) all.add(resolved);
    }
  }
  return [...all];
}
