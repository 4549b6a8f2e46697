// The look from outside the runner's plain process in JavaScript (src/assess/js/outside-call.cjs), run
// for real by node: it finds a function by its name among a module's exports (a named export, a
// property of a CommonJS export, a dotted path from one), calls it with the arguments read back from
// exact JSON, and writes each result as the probe writes it; TypeScript imports without extensions
// resolve as a runner would, compiled by the project's own compiler where it has one (Node 24 strips
// the types otherwise).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsLanguage } from '../../../src/assess/js/js-language.ts';

const NODE24 = resolve('node_modules', 'node', 'bin', 'node');
/** The machine's own node where it is one without `module.registerHooks` (Node 20 here and in CI). */
const MACHINE_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => {
  try {
    const version = execFileSync(path, ['-p', 'typeof require("node:module").registerHooks'], { encoding: 'utf8' });
    return version.trim() === 'undefined';
  } catch {
    return false;
  }
});
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Runs the script in a project of `files` on `calls`; the lines it wrote, by call. */
function outside(
  files: Record<string, string>,
  calls: Array<{ path: string; name: string; args: unknown[]; this?: Record<string, unknown> }>,
  packages: Record<string, string> = {},
  node = NODE24,
): unknown[] {
  const root = mkdtempSync(join(tmpdir(), 'outside-call-'));
  dirs.push(root);
  for (const [name, target] of Object.entries(packages)) {
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    symlinkSync(target, join(root, 'node_modules', name));
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, '.fixloop-probe'));
  // The files the assessment copies beside the script, as it copies them.
  for (const { from, name } of jsLanguage.outside?.files ?? []) copyFileSync(from, join(root, '.fixloop-probe', name));
  const given = calls.map((call) => ({
    ...call,
    args: JSON.stringify(call.args),
    ...(call.this ? { this: JSON.stringify(call.this) } : {}),
  }));
  writeFileSync(join(root, '.fixloop-probe/calls.json'), JSON.stringify(given));
  execFileSync(node, ['.fixloop-probe/outside-call.cjs', '.fixloop-probe/calls.json', '.fixloop-probe/out.jsonl'], {
    cwd: root,
  });
  const lines = readFileSync(join(root, '.fixloop-probe/out.jsonl'), 'utf8').trim().split('\n');
  return lines.map((line) => {
    const { i, ...rest } = JSON.parse(line) as { i: number };
    return [i, rest];
  });
}

describe('the plain process that makes the calls again', () => {
  it('finds named exports, CommonJS properties and dotted paths, and writes results as the probe does', () => {
    const results = outside(
      {
        'lib.cjs': [
          'function join(a, b) { return a + "/" + b; }',
          'function match(p) { return p.length; }',
          'match.base = function (p) { return p.split("/").pop(); };',
          'async function later(x) { return [x, x]; }',
          'function fail(m) { throw new RangeError(m); }',
          'module.exports = { join, match, later, fail };',
        ].join('\n'),
        'esm.mjs': 'export function pick(o) { return { depth: o.depth }; }\n',
      },
      [
        { path: 'lib.cjs', name: 'join', args: ['a', 'b'] },
        { path: 'lib.cjs', name: 'match.base', args: ['x/y'] },
        { path: 'lib.cjs', name: 'later', args: [2] },
        { path: 'lib.cjs', name: 'fail', args: ['boom'] },
        { path: 'esm.mjs', name: 'pick', args: [{ depth: 2, verbose: true }] },
        { path: 'lib.cjs', name: 'hidden', args: [] },
        { path: 'missing.cjs', name: 'f', args: [] },
        // Values JSON has no literal for come tagged (probe-replay.cjs) and are given back.
        { path: 'lib.cjs', name: 'join', args: [{ $fixloop: 'undefined' }, { $fixloop: 'bigint', value: '7' }] },
      ],
    );
    expect(results).toEqual([
      [0, { out: { returned: "'a/b'" } }],
      [1, { out: { returned: "'y'" } }],
      [2, { out: { returned: '[2, 2]' } }],
      [3, { out: { threw: 'RangeError: boom' } }],
      [4, { out: { returned: '{ depth: 2 }' } }],
      [5, { missing: 'lib.cjs has no function named hidden' }],
      [6, { missing: expect.stringMatching(/^missing.cjs does not load in plain node: Error: Cannot find module/) }],
      [7, { out: { returned: "'undefined/7'" } }],
    ]);
  });

  it("calls a method on an object of its class given the receiver's fields, without its constructor or setters", () => {
    const results = outside(
      {
        'meter.mjs': [
          'export class Meter {',
          '  constructor() { throw new Error("the constructor ran"); }',
          '  set unit(u) { throw new Error("a setter ran"); }',
          '  show(n) { return `${n * this.scale} ${this.unit}`; }',
          '}',
          'export default class Gauge { peek() { return this.level; } }',
          'class Hidden { #secret = 1; read() { return this.#secret; } }',
          'export const Private = Hidden;',
        ].join('\n'),
      },
      [
        { path: 'meter.mjs', name: 'Meter.show', args: [3], this: { scale: 2, unit: 'cm' } },
        { path: 'meter.mjs', name: 'Gauge.peek', args: [], this: { level: [1, { a: null }] } },
        { path: 'meter.mjs', name: 'Private.read', args: [], this: {} },
        { path: 'meter.mjs', name: 'Meter.absent', args: [], this: {} },
        { path: 'meter.mjs', name: 'Nothing.show', args: [], this: {} },
      ],
    );
    expect(results).toEqual([
      [0, { out: { returned: "'6 cm'" } }],
      [1, { out: { returned: '[1, { a: null }]' } }],
      // A private field is no field the suite's object could pass on: the method throws, and the
      // original throws as well, so such a call never counts (outside-look.ts).
      [2, { out: { threw: expect.stringMatching(/^TypeError/) } }],
      [3, { missing: 'meter.mjs has no class with a method named Meter.absent' }],
      [4, { missing: 'meter.mjs has no class with a method named Nothing.show' }],
    ]);
  });

  it("calls a class's own method on an object of its subclass, made of the class its name finds, which must extend it", () => {
    const results = outside(
      {
        'cart.mjs': [
          'export class Cart {',
          '  total() { return this.items.reduce((sum, n) => sum + n, 0); }',
          '  label() { return `cart of ${this.items.length}`; }',
          '}',
          'class GiftCart extends Cart {',
          '  total() { return 0; }',
          '  label() { return `gift ${super.label()} for ${this.to}`; }',
          '}',
          'class Unrelated { total() { return -1; } }',
          'export const carts = [GiftCart, Unrelated];',
        ].join('\n'),
      },
      [
        // The subclass overrides total: the suite called Cart's own, and so does the plain process.
        {
          path: 'cart.mjs',
          name: 'Cart.total',
          args: [],
          this: { $fixloop: 'instance', class: 'GiftCart', fields: { items: [2, 3], to: 'Ada' } },
        },
        {
          path: 'cart.mjs',
          name: 'Cart.label',
          args: [],
          this: { $fixloop: 'instance', class: 'GiftCart', fields: { items: [2], to: 'Ada' } },
        },
        {
          path: 'cart.mjs',
          name: 'Cart.total',
          args: [],
          this: { $fixloop: 'instance', class: 'Unrelated', fields: { items: [2] } },
        },
        {
          path: 'cart.mjs',
          name: 'Cart.total',
          args: [],
          this: { $fixloop: 'instance', class: 'Elsewhere', fields: { items: [2] } },
        },
      ],
    );
    expect(results).toEqual([
      [0, { out: { returned: '5' } }],
      [1, { out: { returned: "'cart of 1'" } }],
      [2, { missing: 'cart.mjs has no class with a method named Cart.total' }],
      [3, { missing: expect.stringContaining('no class named Elsewhere') }],
    ]);
  });

  it("gives a receiver back with the objects of the program's classes, Maps and Sets it holds", () => {
    const results = outside(
      {
        'tally.js': [
          "const { Rate } = require('./rate.js');",
          'class Tally {',
          '  due(tip) { const net = [...this.rows.values()].reduce((a, b) => a + b, tip); return net + (net * this.rate.percent) / 100; }',
          '  isRate() { return this.rate instanceof Rate && this.tags.has("x"); }',
          '}',
          'module.exports = { Tally };',
        ].join('\n'),
        'rate.js': 'class Rate { constructor() { throw new Error("the constructor ran"); } }\nmodule.exports = { Rate };',
      },
      [
        {
          path: 'tally.js',
          name: 'Tally.due',
          args: [0],
          this: {
            rate: { $fixloop: 'instance', class: 'Rate', fields: { percent: 10 } },
            rows: { $fixloop: 'map', items: [[['mon', 'tea'], 300]] },
            tags: { $fixloop: 'set', items: ['x'] },
          },
        },
        {
          path: 'tally.js',
          name: 'Tally.isRate',
          args: [],
          this: { rate: { $fixloop: 'instance', class: 'Rate', fields: {} }, tags: { $fixloop: 'set', items: ['x'] } },
        },
        {
          path: 'tally.js',
          name: 'Tally.due',
          args: [{ $fixloop: 'instance', class: 'Absent', fields: {} }],
          this: { rows: { $fixloop: 'map', items: [] } },
        },
      ],
    );
    expect(results).toEqual([
      [0, { out: { returned: '330' } }],
      // The class a binding of the module holds (an import): the program's own, so `instanceof` holds.
      [1, { out: { returned: 'true' } }],
      [2, { missing: "the values of Tally.due's call could not be given back: Error: no class named Absent" }],
    ]);
  });

  it('reaches the functions and classes a module keeps to itself, in a copy of the module apart from the program', () => {
    const results = outside(
      {
        'package.json': JSON.stringify({ type: 'module' }),
        'lib.cjs': [
          'let calls = 0;',
          'function helper(x) { calls += 1; return [x * 2, calls]; }',
          'const table = { lookup: (k) => k.toUpperCase() };',
          'class Box { size() { return this.w * this.h; } }',
          'module.exports = { run: (x) => helper(x) };',
        ].join('\n'),
        'esm.mjs': 'const twice = (s) => s + s;\nexport const api = (s) => twice(s);\n',
        'src/util.ts': 'function pad(s: string, n: number): string { return s.padStart(n); }\nexport const use = pad;\n',
      },
      [
        { path: 'lib.cjs', name: 'helper', args: [2] },
        { path: 'lib.cjs', name: 'helper', args: [3] },
        { path: 'lib.cjs', name: 'table.lookup', args: ['a'] },
        { path: 'lib.cjs', name: 'Box.size', args: [], this: { w: 2, h: 3 } },
        { path: 'esm.mjs', name: 'twice', args: ['ab'] },
        { path: 'src/util.ts', name: 'pad', args: ['x', 3] },
        { path: 'lib.cjs', name: 'nowhere', args: [] },
      ],
    );
    expect(results).toEqual([
      // One copy of the module for the look's calls of it: the second call sees the first one's count.
      [0, { out: { returned: '[4, 1]' } }],
      [1, { out: { returned: '[6, 2]' } }],
      [2, { out: { returned: "'A'" } }],
      [3, { out: { returned: '6' } }],
      [4, { out: { returned: "'abab'" } }],
      [5, { out: { returned: "'  x'" } }],
      [6, { missing: 'lib.cjs has no function named nowhere' }],
    ]);
  });

  // The operator's Node may be older than fixloop's: the machine's Node 20 has `module.register`,
  // whose hooks run in a thread of their own, and not `module.registerHooks` (Node 22.15).
  it.runIf(MACHINE_NODE)(
    "reaches an ES module's own helper on a Node without module.registerHooks, and resolves as a runner would",
    () => {
      const results = outside(
        {
          'package.json': JSON.stringify({ type: 'module' }),
          'src/ruler.js':
            "import { step } from './step';\nconst scaled = (n) => step(n) * 2;\nexport const api = (n) => scaled(n);\n",
          'src/step.js': 'export const step = (n) => n + 1;\n',
        },
        [
          { path: 'src/ruler.js', name: 'scaled', args: [2] },
          { path: 'src/ruler.js', name: 'api', args: [3] },
        ],
        {},
        MACHINE_NODE ?? NODE24,
      );
      expect(results).toEqual([
        [0, { out: { returned: '6' } }],
        [1, { out: { returned: '8' } }],
      ]);
    },
  );

  it('loads TypeScript that imports without extensions, or as .js, as its runner would', () => {
    const results = outside(
      {
        'package.json': JSON.stringify({ type: 'module' }),
        'src/util.ts': 'export const twice = (n: number): number => n * 2;\n',
        'src/more.ts': 'export const plus = (n: number): number => n + 1;\n',
        'src/index.ts':
          "import { twice } from './util';\nimport { plus } from './more.js';\nexport function calc(n: number): number { return plus(twice(n)); }\n",
      },
      [{ path: 'src/index.ts', name: 'calc', args: [3] }],
    );
    expect(results).toEqual([[0, { out: { returned: '7' } }]]);
  });

  it("compiles TypeScript with the project's own compiler, so an import of a type alone is dropped as its runner drops it", () => {
    const files = {
      'package.json': JSON.stringify({ type: 'module' }),
      'src/kinds.ts': 'export interface Kind { name: string }\nexport const DEFAULT = 1;\n',
      'src/index.ts':
        "import { Kind, DEFAULT } from './kinds';\nexport function label(k: Kind): string { return k.name + DEFAULT; }\n",
    };
    const call = { path: 'src/index.ts', name: 'label', args: [{ name: 'a' }] };
    // Node's own stripping keeps the import of `Kind`, which no module exports.
    expect(outside(files, [call])).toEqual([
      [0, { missing: expect.stringContaining("does not provide an export named 'Kind'") }],
    ]);
    expect(outside(files, [call], { typescript: resolve('node_modules/typescript') })).toEqual([
      [0, { out: { returned: "'a1'" } }],
    ]);
  });
});
