// What instrumented code records when it really runs: plain node, Node 20 (the machine's) and Node 24
// (fixloop's), CommonJS and ESM, with and without process.getBuiltinModule. The program's own output
// and exit code must not change.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeRecord } from '../../../src/assess/probe-record.ts';
import {
  FIXTURES,
  NODE24,
  fixture,
  instrumentInto,
  of,
  records,
  removeProjects,
  run,
  tempProject,
  writeInto,
} from './probe-run.ts';

afterAll(removeProjects);

const NODES = [
  ['node 20', 'node'],
  ['node 24', NODE24],
] as const;

/** The fixture's CommonJS suite, run plain and instrumented. */
function runCjs(
  node: string,
  preload: string[] = [],
): { plain: ReturnType<typeof run>; probed: ReturnType<typeof run>; all: ProbeRecord[] } {
  const plainRoot = tempProject();
  writeInto(plainRoot, 'lib.cjs', fixture('lib.cjs'));
  writeInto(plainRoot, 'main.cjs', fixture('main.cjs'));
  const root = tempProject();
  instrumentInto(root, 'lib.cjs', fixture('lib.cjs'));
  writeInto(root, 'main.cjs', fixture('main.cjs'));
  return {
    plain: run(node, [...preload, 'main.cjs'], plainRoot),
    probed: run(node, [...preload, 'main.cjs'], root),
    all: records(root),
  };
}

describe('generated calls turned off in the probe folder', () => {
  it("records the suite's calls and generates none around them", () => {
    const root = tempProject();
    instrumentInto(root, 'lib.cjs', fixture('lib.cjs'));
    writeInto(root, 'main.cjs', fixture('main.cjs'));
    writeInto(root, '.fixloop-probe/no-generated-inputs', '');
    run(NODE24, ['main.cjs'], root);
    const all = records(root);
    expect(all.some((r) => r.kind === 'suite')).toBe(true);
    expect(all.filter((r) => r.kind === 'generated')).toEqual([]);
  });
});

describe('generated calls turned off around nested functions', () => {
  it('generates around top-level functions, and none around a closure over its enclosing call', () => {
    const root = tempProject();
    const lib = `function collect(words) {
  const seen = [];
  function note(word) {
    seen.push(word.toUpperCase());
    return seen.length;
  }
  for (const word of words) note(word);
  return seen;
}
function shout(word) {
  return word.toUpperCase();
}
module.exports = { collect, shout };
`;
    instrumentInto(root, 'lib.cjs', lib);
    writeInto(
      root,
      'main.cjs',
      "const { collect, shout } = require('./lib.cjs');\nconsole.log(collect(['a', 'b']), shout('x'));\n",
    );
    writeInto(root, '.fixloop-probe/no-generated-inputs', 'nested');
    const out = run(NODE24, ['main.cjs'], root);
    expect(out.stdout).toContain("[ 'A', 'B' ] X");
    const generated = records(root).filter((r) => r.kind === 'generated');
    expect(generated.some((r) => r.fn.endsWith('#shout'))).toBe(true);
    expect(generated.some((r) => r.fn.endsWith('#collect'))).toBe(true);
    expect(generated.filter((r) => r.fn.endsWith('#collect.note'))).toEqual([]);
  });
});

describe.each(NODES)('a CommonJS file under %s', (_label, node) => {
  let result: ReturnType<typeof runCjs>;
  beforeAll(() => {
    result = runCjs(node);
  });

  it('leaves the output and exit code alone, rethrowing the very error the function threw', () => {
    expect(result.probed.stderr).toBe(result.plain.stderr);
    expect(result.probed.stdout).toBe(result.plain.stdout);
    expect(result.probed.status).toBe(3);
    expect(result.probed.stdout).toContain('same error: true');
  });

  it('records each suite call with its arguments, result and caller', () => {
    expect(of(result.all, 'lib.cjs#joinPath', 'suite')).toEqual([
      {
        fn: 'lib.cjs#joinPath',
        args: "'a/b', 'c'",
        kind: 'suite',
        out: { returned: "'a/b/c'" },
        path: [0, 2, 4],
        site: 'main.cjs:5',
        // A plain function's arguments, exactly: the look from outside the runner calls it with them.
        replay: '["a/b","c"]',
      },
    ]);
    expect(of(result.all, 'lib.cjs#fail', 'suite')).toEqual([
      {
        fn: 'lib.cjs#fail',
        args: "'boom'",
        kind: 'suite',
        out: { threw: 'RangeError: boom' },
        path: [0, 1],
        site: 'main.cjs:11',
        replay: '["boom"]',
      },
    ]);
    expect(of(result.all, 'lib.cjs#push', 'suite')[0]).toMatchObject({
      args: '[1, 2], 3',
      out: { returned: '3' },
      after: '[1, 2, 3], 3',
    });
  });

  it('keeps `this` and `arguments` of a method, and records what the call did to `this`', () => {
    expect(result.probed.stdout).toContain('[2,1] [5,2] 5');
    expect(of(result.all, 'lib.cjs#Counter.add', 'suite').map((r) => [r.args, r.out])).toEqual([
      ['2', { returned: '[2, 1]' }],
      ["3, 'extra'", { returned: '[5, 2]' }],
      ['10', { returned: '[10, 1]' }],
    ]);
    // `super` in the moved body still reaches the parent's method.
    expect(result.probed.stdout).toContain('[10,1]');
    expect(of(result.all, 'lib.cjs#Loud.add', 'suite').map((r) => [r.args, r.out])).toEqual([['1', { returned: '[10, 1]' }]]);
    // What a call did to its receiver is recorded, as what it did to its arguments is.
    expect(of(result.all, 'lib.cjs#Counter.add', 'suite').map((r) => r.thisAfter)).toEqual([
      'Counter { total: 2 }',
      'Counter { total: 5 }',
      'Loud { total: 10 }',
    ]);
    expect(of(result.all, 'lib.cjs#Loud.add', 'suite').map((r) => r.thisAfter)).toEqual(['Loud { total: 10 }']);
    // A method's call is made again outside the runner on an object of its class: one made by the
    // constructor call that made the receiver, while its fields are as the constructor left them
    // (probe-born.cjs), else one given the fields the receiver had before the call; on an object of a
    // subclass (Loud's call of Counter's add), one of that subclass, by its name and fields.
    expect(of(result.all, 'lib.cjs#Counter.add', 'suite').map((r) => [r.replay, r.replayThis])).toEqual([
      ['[2]', '{"$fixloop":"new","args":[]}'],
      ['[3,"extra"]', '{"total":2}'],
      ['[10]', '{"$fixloop":"instance","class":"Loud","fields":{"total":0}}'],
    ]);
  });

  it("generates around a method's arguments on copies of its receiver as the call found it, and the suite's is untouched", () => {
    expect(result.probed.stdout).toContain('[2,1] [5,2] 5');
    const around = of(result.all, 'lib.cjs#Counter.add', 'generated');
    // Around add(2) on a new counter: each input on its own copy of `Counter { total: 0 }`.
    expect(around).toContainEqual(
      expect.objectContaining({ args: '3', base: '2', out: { returned: '[3, 1]' }, thisAfter: 'Counter { total: 3 }' }),
    );
    expect(around.filter((r) => r.base === '2' && r.args === '1')).toEqual([
      expect.objectContaining({ out: { returned: '[1, 1]' }, thisAfter: 'Counter { total: 1 }' }),
    ]);
    // A subclass's override, `super` included, on a copy of its own receiver.
    expect(of(result.all, 'lib.cjs#Loud.add', 'generated')).toContainEqual(
      expect.objectContaining({ args: '2', out: { returned: '[20, 1]' }, thisAfter: 'Loud { total: 20 }' }),
    );
  });

  it('holds an argument of a class still, copied for each input, while the plain one varies', () => {
    expect(result.probed.stdout).toContain('cursor 3 3 true');
    const around = of(result.all, 'lib.cjs#advance', 'generated');
    expect(around).toContainEqual(
      expect.objectContaining({ args: 'Cursor { at: 1 }, 3', out: { returned: '4' }, after: 'Cursor { at: 4 }, 3' }),
    );
    expect(around.every((r) => r.args.startsWith('Cursor { at: 1 }'))).toBe(true);
  });

  it("calls a function through the namespace it was called on, not a copy of it (a package's entry)", () => {
    expect(result.probed.stdout).toContain('api 5');
    expect(of(result.all, 'lib.cjs#clamp', 'generated').filter((r) => r.base === '7, 0, 5')).toContainEqual(
      expect.objectContaining({ args: '8, 0, 5', out: { returned: '5' } }),
    );
  });

  it('stops generating around a call with copies after 100 ms, and makes none for that function again', () => {
    expect(result.probed.stdout).toContain('crawl 4 5');
    const around = of(result.all, 'lib.cjs#crawl', 'generated');
    // 30 ms each: the fourth or fifth input runs past the deadline.
    expect(around.length).toBeGreaterThan(0);
    expect(around.length).toBeLessThanOrEqual(5);
    expect(around.every((r) => r.base === 'Cursor { at: 3 }, 1')).toBe(true);
  });

  it("varies the fields of a method's receiver, and of an object argument, when no argument is plain", () => {
    expect(result.probed.stdout).toContain('label ab.... at 4 ab open');
    const text = of(result.all, 'lib.cjs#Label.text', 'generated');
    expect(text).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ args: 'this.upper=true', base: '', out: { returned: "'AB....'" } }),
        expect.objectContaining({ args: 'this.width=7', out: { returned: "'ab.....'" } }),
      ]),
    );
    expect(text.some((r) => r.args.startsWith("this.name='"))).toBe(true);
    // Each on its own copy: the suite's label is untouched, and no input sees another's field.
    expect(text.find((r) => r.args === 'this.width=7')?.thisAfter).toBe("Label { name: 'ab', upper: false, width: 7 }");
    expect(of(result.all, 'lib.cjs#where', 'generated')).toContainEqual(
      expect.objectContaining({ args: 'Cursor { at: 4 }, arg1.at=5', out: { returned: "'at 5'" } }),
    );
  });

  it('records a generated call that ends the process as exited, and the program goes on', () => {
    expect(of(result.all, 'lib.cjs#Cli.finish', 'generated')).toContainEqual(
      expect.objectContaining({ args: 'this.done=true', out: { threw: 'process.exit(4)' } }),
    );
    // The program's own output to its end, and its own exit code.
    expect(result.probed.stdout).toContain('later 42');
    expect(result.probed.status).toBe(3);
  });

  it('records no generated call on a copy its class refuses (a private field)', () => {
    expect(of(result.all, 'lib.cjs#Vault.open', 'suite')).toHaveLength(1);
    expect(of(result.all, 'lib.cjs#Vault.open', 'generated')).toEqual([]);
  });

  it("records a generator's values as the program drew them, `this` and `arguments` kept, and a loop's `break` as stopped", () => {
    expect(result.probed.stdout).toContain('[0,1,2]\n["-a","-b"]');
    expect(of(result.all, 'lib.cjs#upTo', 'suite').map((r) => [r.args, r.out])).toEqual([
      ['3', { returned: "Yielded { values: [0, 1, 2], returned: 'done' }" }],
      ["1000, 'x'", { returned: 'Yielded { values: [0, 2, 4], stopped: true }' }],
    ]);
    expect(of(result.all, 'lib.cjs#Bag.each', 'suite').map((r) => [r.args, r.out])).toEqual([
      ["'-'", { returned: "Yielded { values: ['-a', '-b'] }" }],
    ]);
    expect(of(result.all, 'lib.cjs#upTo', 'generated')).toEqual([]);
  });

  it('records an async function when it settles, resolved or rejected', () => {
    expect(result.probed.stdout).toContain('later 42');
    const suite = of(result.all, 'lib.cjs#later', 'suite').map((r) => [r.args, r.out]);
    expect(suite).toEqual(
      expect.arrayContaining([
        ['21', { returned: '42' }],
        ['-1', { threw: 'TypeError: negative' }],
      ]),
    );
    // An async body's path goes on after its `await` (`await null; if (x < 0) throw …; return x * 2`).
    expect(of(result.all, 'lib.cjs#later', 'generated')).toContainEqual({
      fn: 'lib.cjs#later',
      args: '0',
      kind: 'generated',
      base: '21',
      out: { returned: '0' },
      path: [0, 1, 3],
    });
    expect(of(result.all, 'lib.cjs#later', 'suite').find((r) => r.args === '-1')?.path).toEqual([0, 1, 2]);
  });

  it('generates the neighbours of a string, a number and an object, each with its base', () => {
    const args = (fn: string) => of(result.all, fn, 'generated').map((r) => r.args);
    expect(of(result.all, 'lib.cjs#joinPath', 'generated').every((r) => r.base === "'a/b', 'c'")).toBe(true);
    expect(args('lib.cjs#joinPath')).toEqual(
      expect.arrayContaining([
        "'a/b'",
        "'', 'c'",
        "'/b', 'c'",
        "'a/', 'c'",
        "'a/b/', 'c'",
        "'a/b', '/c'",
        "'a\\\\b', 'c'",
        "'a//b', 'c'",
        "'a.b', 'c'",
        "'a/b', 'C'",
        "'a/b', 'cc'",
      ]),
    );
    expect(args('lib.cjs#joinPath').length).toBeLessThanOrEqual(56);
    expect(args('lib.cjs#clamp')).toEqual(
      expect.arrayContaining([
        '5, 0',
        '0, 0, 10',
        '6, 0, 10',
        '-5, 0, 10',
        '1000000000000000, 0, 10',
        'NaN, 0, 10',
        '5, 1, 10',
        '5, 0, Infinity',
      ]),
    );
    expect(args('lib.cjs#pick')).toEqual(
      expect.arrayContaining([
        '{}',
        '{ depth: 2 }',
        '{ verbose: true }',
        '{ verbose: false, depth: 2 }',
        '{ verbose: null, depth: 2 }',
      ]),
    );
    expect(of(result.all, 'lib.cjs#pick', 'generated').find((r) => r.args === '{ verbose: false, depth: 2 }')?.out).toEqual({
      returned: '{ verbose: false, depth: 2 }',
    });
    expect(args('lib.cjs#outer')).toEqual(expect.arrayContaining(["''", "'b'", "'a'", "'AB'", "'abab'"]));
    // `arguments.length` sees the call with its last argument dropped.
    expect(of(result.all, 'lib.cjs#arity', 'generated')[0]).toEqual({
      fn: 'lib.cjs#arity',
      args: '1, 2',
      kind: 'generated',
      base: '1, 2, 3',
      out: { returned: '2' },
      path: [0],
    });
  });

  it('records nothing that a generated call calls (the function itself or another probed one)', () => {
    const outerGenerated = of(result.all, 'lib.cjs#outer', 'generated');
    expect(outerGenerated.length).toBeGreaterThan(10);
    // The suite's outer('ab') called inner twice; its generated calls called it again, unrecorded.
    expect(of(result.all, 'lib.cjs#inner', 'suite').map((r) => r.args)).toEqual(["'ab'", "'AB'"]);
    expect(of(result.all, 'lib.cjs#inner', 'generated').every((r) => r.base === "'ab'" || r.base === "'AB'")).toBe(true);
  });
});

describe('without process.getBuiltinModule (Node before 20.16 and 22.3)', () => {
  it('a CommonJS file reaches node:fs through require', () => {
    const result = runCjs(NODE24, ['--require', path.join(FIXTURES, 'no-builtin.cjs')]);
    expect(result.probed.stdout).toBe(result.plain.stdout);
    expect(of(result.all, 'lib.cjs#joinPath', 'suite')).toHaveLength(1);
  });

  it('an ES module reaches it through the static import the probe added', () => {
    const root = tempProject();
    instrumentInto(root, 'lib.mjs', fixture('lib.mjs'));
    writeInto(root, 'main.mjs', fixture('main.mjs'));
    const probed = run(NODE24, ['--require', path.join(FIXTURES, 'no-builtin.cjs'), 'main.mjs'], root);
    expect(probed.stderr).toBe('');
    expect(of(records(root), 'lib.mjs#clamp', 'suite')).toEqual([
      {
        fn: 'lib.mjs#clamp',
        args: '5, 0, 10',
        kind: 'suite',
        out: { returned: '5' },
        path: [],
        site: 'main.mjs:5',
        replay: '[5,0,10]',
      },
    ]);
  });
});

describe.each(NODES)('an ES module under %s', (_label, node) => {
  it('records arrows (destructured parameters too) and keeps the output and exit code', () => {
    const plainRoot = tempProject();
    writeInto(plainRoot, 'lib.mjs', fixture('lib.mjs'));
    writeInto(plainRoot, 'main.mjs', fixture('main.mjs'));
    const root = tempProject();
    instrumentInto(root, 'lib.mjs', fixture('lib.mjs'));
    writeInto(root, 'main.mjs', fixture('main.mjs'));
    const plain = run(node, ['main.mjs'], plainRoot);
    const probed = run(node, ['main.mjs'], root);
    expect([probed.stdout, probed.stderr, probed.status]).toEqual([plain.stdout, plain.stderr, 4]);
    const all = records(root);
    expect(of(all, 'lib.mjs#pick', 'suite')).toEqual([
      {
        fn: 'lib.mjs#pick',
        args: '{ verbose: true, depth: 2 }',
        kind: 'suite',
        out: { returned: '{ verbose: true, depth: 2 }' },
        path: [],
        site: 'main.mjs:6',
        replay: '[{"verbose":true,"depth":2}]',
      },
    ]);
    expect(of(all, 'lib.mjs#pick', 'generated').map((r) => r.args)).toEqual(expect.arrayContaining(['', '{}', '{ depth: 2 }']));
    expect(of(all, 'lib.mjs#pick', 'generated').find((r) => r.args === '')?.out).toMatchObject({
      threw: expect.stringMatching(/^TypeError: /),
    });
    expect(of(all, 'lib.mjs#joinPath', 'generated').length).toBeGreaterThan(20);
  });

  it("names the lines of the test files on a call's stack, through code between them and the function", () => {
    // A generated bundle between the test and the function (cssstyle's properties.js) is the first
    // caller; the test files listed beside the records tell whose call it was.
    const lib = 'exports.parse = (text) => text.trim();\n';
    const bundle = "const { parse } = require('../lib.cjs');\nexports.set = (value) => parse(value);\n";
    const helper = "const { set } = require('../generated/bundle.cjs');\nexports.check = (value) => set(value);\n";
    const test =
      "const { check } = require('./helper.cjs');\nconst { set } = require('../generated/bundle.cjs');\ncheck(' a ');\nset(' b ');\n";
    const root = tempProject();
    instrumentInto(root, 'lib.cjs', lib);
    writeInto(root, 'generated/bundle.cjs', bundle);
    writeInto(root, 'test/helper.cjs', helper);
    writeInto(root, 'test/case.cjs', test);
    writeInto(root, '.fixloop-probe/test-files.json', JSON.stringify(['test/helper.cjs', 'test/case.cjs']));
    expect(run(node, ['test/case.cjs'], root).status).toBe(0);
    const calls = of(records(root), 'lib.cjs#parse', 'suite');
    expect(calls.map((r) => [r.args, r.site, r.testLines])).toEqual([
      ["' a '", 'generated/bundle.cjs:2', ['test/helper.cjs:2', 'test/case.cjs:3']],
      ["' b '", 'generated/bundle.cjs:2', ['test/case.cjs:4']],
    ]);
    // Without the list, the first caller alone, as before.
    const bare = tempProject();
    instrumentInto(bare, 'lib.cjs', lib);
    writeInto(bare, 'generated/bundle.cjs', bundle);
    writeInto(bare, 'test/helper.cjs', helper);
    writeInto(bare, 'test/case.cjs', test);
    expect(run(node, ['test/case.cjs'], bare).status).toBe(0);
    expect(of(records(bare), 'lib.cjs#parse', 'suite').map((r) => [r.site, r.testLines])).toEqual([
      ['generated/bundle.cjs:2', undefined],
      ['generated/bundle.cjs:2', undefined],
    ]);
  });

  it("records an arrow's arguments as the caller passed them, and keeps its length and name", () => {
    // A patch that adds `factor = 2` must not make `scale(3)` look like another call than before.
    const lib =
      'export const scale = (x, factor = 2) => x * factor;\nexport const api = { twice: (...xs) => xs.map((x) => x * 2) };\n';
    const main =
      "import { scale, api } from './lib.mjs';\nconsole.log(scale(3), scale(3, 4), scale.length, scale.name, api.twice.length, api.twice.name);\n";
    const root = tempProject();
    instrumentInto(root, 'lib.mjs', lib, new Set([1, 2]));
    writeInto(root, 'main.mjs', main);
    const probed = run(node, ['main.mjs'], root);
    expect(probed.stdout).toBe('6 12 1 scale 0 twice\n');
    expect(of(records(root), 'lib.mjs#scale', 'suite').map((r) => [r.args, r.out])).toEqual([
      ['3', { returned: '6' }],
      ['3, 4', { returned: '12' }],
    ]);
  });
});

describe.each(NODES)('a call inside which the process exits, under %s', (_label, node) => {
  it('is recorded with the exit as its outcome, the calls around it on the stack too, and the exit code stays', () => {
    // A command-line parser that exits on an unknown option (commander's `unknownOption`): the fix
    // that lets it return otherwise leaves the original with no record of the call at all.
    const cli = [
      'class Parser {',
      '  parse(args) {',
      "    if (args.some((a) => a.startsWith('--'))) this.fail(args[0]);",
      '    return args.length;',
      '  }',
      '  fail(option) {',
      "    process.stdout.write('unknown ' + option + '\\n');",
      '    process.exit(2);',
      '  }',
      '}',
      'module.exports = { Parser };',
      '',
    ].join('\n');
    const main =
      "const { Parser } = require('./cli.cjs');\nconst p = new Parser();\nconsole.log(p.parse(['a']));\np.parse(['--x']);\nconsole.log('not reached');\n";
    const plainRoot = tempProject();
    writeInto(plainRoot, 'cli.cjs', cli);
    writeInto(plainRoot, 'main.cjs', main);
    const root = tempProject();
    instrumentInto(root, 'cli.cjs', cli);
    writeInto(root, 'main.cjs', main);
    const plain = run(node, ['main.cjs'], plainRoot);
    const probed = run(node, ['main.cjs'], root);
    expect(probed).toEqual(plain);
    expect(probed.status).toBe(2);
    expect(probed.stdout).toBe('1\nunknown --x\n');
    const all = records(root);
    expect(of(all, 'cli.cjs#Parser.parse', 'suite').map((r) => [r.args, r.out])).toEqual([
      ["['a']", { returned: '1' }],
      ["['--x']", { threw: 'process.exit(2)' }],
    ]);
    expect(of(all, 'cli.cjs#Parser.fail', 'suite').map((r) => [r.args, r.out])).toEqual([
      ["'--x'", { threw: 'process.exit(2)' }],
    ]);
  });
});
