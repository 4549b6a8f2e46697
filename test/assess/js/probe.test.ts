// The probe's instrumentation: which functions a patch's lines select, their ids, and a rewrite that
// keeps every line where it was. What the rewritten code records is in probe-node.test.ts.
import { describe, expect, it } from 'vitest';
import { instrumentJs } from '../../../src/assess/js/probe.ts';
import { parseJs, walkJs, type JsNode } from '../../../src/core/js-tree.ts';

function isSubsequence(part: string, whole: string): boolean {
  let at = 0;
  for (const char of whole) if (at < part.length && char === part[at]) at++;
  return at === part.length;
}

const TARGET = { recordFile: '/repo/.fixloop-probe/records.jsonl', path: 'src/lib.js', runtimeDir: '/repo/.fixloop-probe' };

function lineOf(source: string, text: string): number {
  const index = source.split('\n').findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`no line with ${text}`);
  return index + 1;
}

function probed(source: string, marks: string[], path = 'src/lib.js'): string[] {
  const lines = new Set(marks.map((mark) => lineOf(source, mark)));
  return instrumentJs(source, lines, { ...TARGET, path })?.functions.map((fn) => `${fn.id}@${fn.line}`) ?? [];
}

const NAMES = `
function top(a) {
  function nested(b) {
    return b + 1; // nested-body
  }
  return [a].map((x) => x * 2); // callback
}
class Parser {
  parse(text) {
    return text.trim(); // method-body
  }
  get size() {
    return 1; // getter-body
  }
  *items() {
    yield 1; // generator-body
  }
}
const api = {
  load(name) { return name; }, // object-method
  save: (data) => data, // object-arrow
};
exports.format = function (value) { return String(value); }; // exports-assign
module.exports.parseAll = (list) => list; // module-exports-assign
Parser.prototype.reset = function () { return 0; }; // prototype-assign
const twice = 1; // top-level
`;

describe('which functions a patch selects', () => {
  it('takes the innermost named function of each changed line, qualified by what holds it', () => {
    expect(probed(NAMES, ['nested-body'])).toEqual(['src/lib.js#top.nested@3']);
    expect(probed(NAMES, ['callback'])).toEqual(['src/lib.js#top@2']);
    expect(probed(NAMES, ['method-body', 'object-method', 'object-arrow'])).toEqual([
      'src/lib.js#Parser.parse@9',
      'src/lib.js#api.load@20',
      'src/lib.js#api.save@21',
    ]);
    expect(probed(NAMES, ['exports-assign', 'module-exports-assign', 'prototype-assign'])).toEqual([
      'src/lib.js#format@23',
      'src/lib.js#parseAll@24',
      'src/lib.js#Parser.reset@25',
    ]);
  });

  it('leaves getters and lines outside functions alone', () => {
    expect(instrumentJs(NAMES, new Set([lineOf(NAMES, 'getter-body'), lineOf(NAMES, 'top-level')]), TARGET)).toBeNull();
  });

  it('probes a generator through the values it yields, but not one whose body reads `super` or `new.target`', () => {
    expect(probed(NAMES, ['generator-body'])).toEqual(['src/lib.js#Parser.items@15']);
    const source = instrumentJs(NAMES, new Set([lineOf(NAMES, 'generator-body')]), TARGET)?.source ?? '';
    expect(source).toContain(
      '*items() {return yield* __fixloop_p().y("src/lib.js#Parser.items", this, arguments, 2, function* () {',
    );
    const reads = 'class A extends B {\n  *items() {\n    yield* super.items(); // super\n  }\n}\n';
    expect(instrumentJs(reads, new Set([lineOf(reads, 'super')]), TARGET)).toBeNull();
  });

  it("takes, for a changed top-level value, the functions of the file that read it (ufo's PROTOCOL_REGEX)", () => {
    const source = [
      'const PROTOCOL_REGEX = /^\\w+:(\\/\\/)?/; // value',
      'export const LIMIT = 3, other = 4; // exported',
      'export function hasProtocol(input) {',
      '  return PROTOCOL_REGEX.test(input);',
      '}',
      'export function capped(list) {',
      '  return list.slice(0, LIMIT);',
      '}',
      'export function unrelated(x) {',
      '  return x;',
      '}',
      '',
    ].join('\n');
    expect(probed(source, ['value'])).toEqual(['src/lib.js#hasProtocol@3']);
    expect(probed(source, ['exported'])).toEqual(['src/lib.js#capped@6']);
  });

  it('gives a function the same id in two versions where its lines moved, and #2 only to a true duplicate', () => {
    const before =
      'function a() { return 1; }\nif (x) { var f = function () { return 1; }; } // first\nelse { var f = function () { return 2; }; } // second\n';
    const after = `// a comment\n\n${before}`;
    expect(probed(before, ['first', 'second'])).toEqual(['src/lib.js#f@2', 'src/lib.js#f#2@3']);
    expect(probed(after, ['first', 'second'])).toEqual(['src/lib.js#f@4', 'src/lib.js#f#2@5']);
    const [first] = instrumentJs(after, new Set([4]), TARGET)?.functions ?? [];
    expect(first).toEqual({ id: 'src/lib.js#f', name: 'f', path: 'src/lib.js', line: 4 });
  });

  it('returns null for a file that does not parse', () => {
    expect(instrumentJs('function broken( {\n  return 1;\n', new Set([1, 2]), TARGET)).toBeNull();
  });
});

describe('the rewrite', () => {
  it('keeps every line of the original on its line, after the directives and leading comments', () => {
    const source = `#!/usr/bin/env node\n// @ts-check\n'use strict';\n${NAMES}`;
    const result = instrumentJs(source, new Set(source.split('\n').map((_, i) => i + 1)), TARGET);
    expect(result).not.toBeNull();
    const lines = result?.source.split('\n') ?? [];
    expect(lines).toHaveLength(source.split('\n').length);
    expect(lines.slice(0, 2)).toEqual(['#!/usr/bin/env node', '// @ts-check']);
    expect(lines[2]).toMatch(/^'use strict'; var __fixloop_h; function __fixloop_p\(\)/);
    source.split('\n').forEach((line, index) => {
      // The probe only inserts: each original line is still there, in order, on its own line.
      expect(isSubsequence(line, lines[index] ?? ''), `line ${index + 1}`).toBe(true);
    });
  });

  it("makes the constructor of a probed method's class record how each object was made", () => {
    const source = [
      'class Gauge {',
      '  #unit;',
      '  constructor(unit) {',
      '    this.#unit = unit;',
      '  }',
      '  show(mm) {',
      '    return mm + this.#unit; // show-body',
      '  }',
      '}',
      'class Wide extends Gauge {',
      '  constructor(unit) {',
      '    super(unit);',
      '  }',
      '  show(mm) {',
      '    return super.show(mm); // wide-body',
      '  }',
      '}',
      'module.exports = { Gauge, Wide };',
    ].join('\n');
    const result = instrumentJs(source, new Set([lineOf(source, 'show-body'), lineOf(source, 'wide-body')]), TARGET);
    const lines = result?.source.split('\n') ?? [];
    expect(lines).toHaveLength(source.split('\n').length);
    expect(lines[2]).toBe('  constructor(unit) {const __fixloop_n = __fixloop_p().a(arguments); try {');
    expect(lines[4]).toBe('  } finally { __fixloop_p().n(__fixloop_n, () => this, new.target, "Gauge"); }}');
    // A derived class's `this` is read in the arrow only, after its constructor ran.
    expect(lines[10]).toBe('  constructor(unit) {const __fixloop_n = __fixloop_p().a(arguments); try {');
    expect(parseJs('src/lib.js', result?.source ?? '')).not.toBeNull();
    // In TypeScript a type checker would see `this` read before `super()`: a derived class is left as it was.
    const typed = instrumentJs(source, new Set([lineOf(source, 'show-body'), lineOf(source, 'wide-body')]), {
      ...TARGET,
      path: 'src/lib.ts',
    });
    const typedLines = typed?.source.split('\n') ?? [];
    expect(typedLines[2]).toContain('__fixloop_p().a(arguments)');
    expect(typedLines.slice(10, 13)).toEqual(source.split('\n').slice(10, 13));
  });

  it('ends a directive written without a semicolon before what it inserts after it, so the file still parses', () => {
    const source = "'use strict'\nfunction f (a) {\n  'use strict'\n  return a + 1 // body\n}\nmodule.exports = f\n";
    const result = instrumentJs(source, new Set([lineOf(source, 'body')]), TARGET);
    expect(result?.functions.map((fn) => fn.name)).toEqual(['f']);
    expect(parseJs('lib.js', result?.source ?? '')).not.toBeNull();
    expect(() => new Function('module', 'require', result?.source ?? '')).not.toThrow();
    expect(result?.source.split('\n')).toHaveLength(source.split('\n').length);
  });

  it('adds a static import of node:fs to a module, and nothing to a CommonJS file', () => {
    const esm = instrumentJs('export function f(a) {\n  return a;\n}\n', new Set([2]), TARGET)?.source ?? '';
    const cjs = instrumentJs('function f(a) {\n  return a;\n}\nmodule.exports = f;\n', new Set([2]), TARGET)?.source ?? '';
    expect(esm).toMatch(/^import \* as __fixloop_fs from "node:fs";/);
    expect(cjs).not.toContain('import ');
    // Reached without a `require("…")` call a bundling build step would rewrite (cssstyle's generator
    // made one `require("../node:fs")`): the only require is not a plain call of `require`.
    expect(cjs).toContain('[require][0]("node:fs")');
    const requireCalls: string[] = [];
    walkJs(parseJs('lib.js', cjs) as JsNode, (node) => {
      const callee = node['callee'] as JsNode | undefined;
      if (node.type === 'CallExpression' && callee?.type === 'Identifier' && callee['name'] === 'require')
        requireCalls.push(cjs.slice(node.start, node.end));
    });
    expect(requireCalls).toEqual([]);
  });

  it('writes the record file into the source and reads nothing from the environment', () => {
    const out = instrumentJs('function f(a) {\n  return a;\n}\n', new Set([2]), TARGET)?.source ?? '';
    expect(out).toContain('"/repo/.fixloop-probe/records.jsonl"');
    expect(out).not.toMatch(/process\.env/);
  });

  it('types what it adds in TypeScript: `this: any` on plain functions, the return type on the moved body', () => {
    const source =
      'export function f(a: string): number {\n  return a.length;\n}\nexport const g = async ({ a }: { a: number }): Promise<number> => a;\n';
    const out = instrumentJs(source, new Set([2, 4]), { ...TARGET, path: 'src/lib.ts' })?.source ?? '';
    expect(out).toContain(
      'export function f(this: any, a: string): number {return __fixloop_p().c("src/lib.ts#f", this, arguments, () => f, 0, (): number => {',
    );
    expect(out).toContain(
      'export const g = __fixloop_p().k((...__fixloop_a: any[]) => __fixloop_p().c("src/lib.ts#g", void 0, __fixloop_a, () => g, 1, async ({ a }: { a: number }): Promise<number> => a), 1, "g");',
    );
  });
});
