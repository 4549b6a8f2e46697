// The Python probe at run time: a fixture module instrumented on every line, real pytest run on it
// (warnings as errors) and on the untouched module, and the records it leaves read back.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_PROBE_RUNTIME } from '../../../src/assess/python/probe.ts';
import type { ProbeRecord } from '../../../src/assess/probe-record.ts';
import {
  allLines,
  cleanup,
  fixture,
  FIXTURES,
  preferResolvedPython,
  prepare,
  pytest,
  records,
  tempDir,
  type PytestRun,
} from './probe-support.ts';

preferResolvedPython();

let plain: PytestRun;
let probed: PytestRun;
let all: ProbeRecord[];

beforeAll(async () => {
  const module = await fixture('textops/textops.py');
  const tests = await fixture('textops/test_textops.py');
  const untouched = await prepare([module, tests], {});
  const instrumented = await prepare([module, tests], { 'textops.py': allLines(module[1]) });
  [plain, probed] = await Promise.all([pytest(untouched.dir), pytest(instrumented.dir)]);
  all = await records(instrumented.recordFile);
});
afterAll(cleanup);

const of = (name: string, kind: 'suite' | 'generated') => all.filter((r) => r.fn === `textops.py#${name}` && r.kind === kind);
const outOf = (name: string, args: string) => all.find((r) => r.fn === `textops.py#${name}` && r.args === args)?.out;

describe('the Python probe at run time', () => {
  it('leaves what pytest decides unchanged, the deliberate failure included', () => {
    expect(plain.outcomes.length).toBe(15);
    expect(probed.outcomes).toEqual(plain.outcomes);
    expect(probed.code).toBe(plain.code);
    expect(probed.output).not.toMatch(/Warning|Traceback \(most recent/);
    expect(probed.outcomes).toContain('FAILED test_textops.py::test_fails_on_purpose');
  });

  it('keeps what generated calls print, log and warn out of the test that asserts on its own', () => {
    expect(of('announce', 'generated').length).toBeGreaterThan(10);
    expect(probed.outcomes).toContain('PASSED test_textops.py::test_announce');
  });

  it('records each suite call with its arguments, its result, a mutation and the pytest test id', () => {
    expect(of('shout', 'suite')[0]).toEqual({
      fn: 'textops.py#shout',
      args: "'hi'",
      kind: 'suite',
      out: { returned: "'HI!'" },
      path: [10],
      site: 'test_textops.py::test_shout',
      // A module-level function's arguments, exactly: the look from outside the runner calls it with them.
      replay: '[["hi"], {}]',
    });
    expect(of('clamp', 'suite').map((r) => [r.args, r.out])).toEqual([
      ['5', { returned: '5' }],
      ['-3', { returned: '0' }],
    ]);
    expect(of('fill', 'suite')).toEqual([
      {
        fn: 'textops.py#fill',
        args: '[1], 2',
        kind: 'suite',
        out: { returned: '2' },
        path: [27, 28],
        after: '[1, 2], 2',
        site: 'test_textops.py::test_fill',
        // As the call got them, before it changed the list.
        replay: '[[[1], 2], {}]',
      },
    ]);
    expect(of('greet', 'suite').map((r) => r.args)).toEqual(["'ann', None", "'bob', title='dr'"]);
  });

  it('records an exception as thrown and re-raises it unchanged (pytest.raises still matches it)', () => {
    expect(of('parse_port', 'suite')).toEqual([
      {
        fn: 'textops.py#parse_port',
        args: "'70000'",
        kind: 'suite',
        out: { threw: 'ValueError: port out of range: 70000' },
        path: [33, 34, 35],
        site: 'test_textops.py::test_parse_port_rejects',
        replay: '[["70000"], {}]',
      },
    ]);
    expect(probed.outcomes).toContain('PASSED test_textops.py::test_parse_port_rejects');
  });

  it("calls a function on strings generated around the suite's, each with its base", () => {
    const generated = of('shout', 'generated');
    expect(generated.every((r) => r.base === "'hi'" || r.base === "'ab'" || r.base === "'a'")).toBe(true);
    const aroundHi = new Map(generated.filter((r) => r.base === "'hi'").map((r) => [r.args, r.out]));
    expect(aroundHi.get("''")).toEqual({ returned: "'!'" });
    expect(aroundHi.get("'i'")).toEqual({ returned: "'I!'" });
    expect(aroundHi.get("'hi/'")).toEqual({ returned: "'HI/!'" });
    expect(aroundHi.get("' hi'")).toEqual({ returned: "' HI!'" });
    expect(aroundHi.get("'h.i'")).toEqual({ returned: "'H.I!'" });
    expect(aroundHi.get("'HI'")).toEqual({ returned: "'HI!'" });
    expect(aroundHi.get("'hihi'")).toEqual({ returned: "'HIHI!'" });
    expect(aroundHi.get('')).toEqual({
      threw: expect.stringMatching(/^TypeError: .*missing 1 required positional argument: 'word'$/) as unknown,
    });
    // Never the suite's own input again, and each input once.
    expect(aroundHi.has("'hi'")).toBe(false);
    expect(new Set(generated.map((r) => r.args)).size).toBe(generated.length);
    expect(generated.length).toBeLessThanOrEqual(56 * 3);
  });

  it("generates integers and dictionaries around the suite's, and a mutation of a generated list", () => {
    const aroundFive = of('clamp', 'generated')
      .filter((r) => r.base === '5')
      .map((r) => r.args);
    expect(aroundFive).toEqual(['', '0', '1', '-1', '6', '4', '-5', '1000000000000000']);
    expect(outOf('clamp', '1000000000000000')).toEqual({ returned: '10' });
    const dicts = of('enabled', 'generated').map((r) => [r.args, r.out]);
    expect(dicts).toEqual(
      expect.arrayContaining([
        ['{}', { returned: '[]' }],
        ["{'b': False}", { returned: '[]' }],
        ["{'a': False, 'b': False}", { returned: '[]' }],
        ["{'a': True, 'b': True}", { returned: "['a', 'b']" }],
        ["{'a': None, 'b': False}", { returned: '[]' }],
      ]),
    );
    expect(all.find((r) => r.fn === 'textops.py#fill' && r.args === '[], 2')).toMatchObject({
      kind: 'generated',
      out: { returned: '1' },
      after: '[2], 2',
    });
  });

  it('tries None at a position only where some suite call passed None', () => {
    const generated = of('greet', 'generated');
    expect(generated.map((r) => r.args)).toContain("'bob', title=None");
    expect(generated.some((r) => /^None/.test(r.args))).toBe(false);
  });

  it('records no call made while a generated call runs, and generates none from it', () => {
    // outer and helper call shout: the suite's calls through them are recorded, their generated ones are not.
    expect(of('shout', 'suite').map((r) => [r.args, r.site])).toEqual([
      ["'hi'", 'test_textops.py::test_shout'],
      ["'ab'", 'test_textops.py::test_outer'],
      ["'a'", 'test_textops.py::test_outer'],
      ["'a'", 'test_textops.py::test_fails_on_purpose'],
    ]);
    expect(of('outer', 'generated').length).toBeGreaterThan(10);
    // Recursion: the suite's countdown(2) recorded at each depth; countdown(3), generated, only once.
    expect(of('countdown', 'suite').map((r) => r.args)).toEqual(['0', '1', '2']);
    expect(all.filter((r) => r.fn === 'textops.py#countdown' && r.args === '3')).toHaveLength(1);
  });

  it('records methods, static and class methods and properties; generates around their plain arguments', () => {
    expect(of('Counter.add', 'suite')).toEqual([
      {
        fn: 'textops.py#Counter.add',
        args: 'Counter(count=1), 2',
        kind: 'suite',
        out: { returned: '3' },
        path: [77, 78],
        after: 'Counter(count=3), 2',
        site: 'test_textops.py::test_counter',
        // Made again outside the runner on a Counter given the fields this one had before the call.
        replay: '[[2], {}]',
        replayThis: '{"count": 1}',
      },
    ]);
    expect(of('Counter.named', 'suite').map((r) => [r.args, r.out])).toEqual([
      ["<class Counter>, 'abc'", { returned: 'Counter(count=3)' }],
    ]);
    expect(of('Counter.label', 'suite').map((r) => r.out)).toEqual([{ returned: "'count=3'" }]);
    expect(of('Counter.double', 'suite').map((r) => r.args)).toEqual(['4']);
    // The receiver is held, copied as it was before the suite's call, for each input: the suite's
    // own counter is not touched (test_counter passes, above).
    expect(of('Counter.add', 'generated')).toContainEqual(
      expect.objectContaining({ args: 'Counter(count=1), 3', out: { returned: '4' }, after: 'Counter(count=4), 3' }),
    );
    expect(of('Counter.add', 'generated').every((r) => r.args.startsWith('Counter(count=1)'))).toBe(true);
    expect(of('Counter.named', 'generated').map((r) => r.args)).toContain("<class Counter>, 'ab'");
    // Nothing plain to vary: a property's only argument is its receiver.
    expect(of('Counter.label', 'generated')).toEqual([]);
    expect(of('Counter.double', 'generated').map((r) => r.args)).toContain('5');
  });

  it('records the lines each call ran: the same for inputs that take the same branch, a nested probed call its own', () => {
    const pathOf = (name: string, args: string) => all.find((r) => r.fn === `textops.py#${name}` && r.args === args)?.path;
    // clamp: `if n < low: return low` taken by -3 and by -1 (generated around 5), not by 5 or 6.
    expect(pathOf('clamp', '-3')).toEqual(pathOf('clamp', '-1'));
    expect(pathOf('clamp', '5')).toEqual(pathOf('clamp', '6'));
    expect(pathOf('clamp', '5')).not.toEqual(pathOf('clamp', '-3'));
    expect(pathOf('clamp', '5')?.length).toBe(2);
    // shout called by outer: its own line, as when a test calls it directly.
    expect(of('shout', 'suite').map((r) => r.path)).toEqual([[10], [10], [10], [10]]);
    expect(of('outer', 'suite')[0]?.path).toHaveLength(1);
  });

  it('leaves a tracer the project set alone, recording no path under it', async () => {
    const module = await fixture('textops/textops.py');
    const tests =
      'import sys\nfrom textops import clamp\n\ndef test_under_a_tracer():\n    events = []\n    sys.settrace(lambda frame, event, arg: events.append(event))\n    try:\n        assert clamp(5) == 5\n    finally:\n        sys.settrace(None)\n    assert "call" in events\n';
    const traced = await prepare([module, ['test_traced.py', tests]], { 'textops.py': allLines(module[1]) });
    const run = await pytest(traced.dir);
    expect(run.outcomes).toEqual(['PASSED test_traced.py::test_under_a_tracer']);
    const calls = (await records(traced.recordFile)).filter((r) => r.fn === 'textops.py#clamp' && r.kind === 'suite');
    expect(calls).toEqual([
      {
        fn: 'textops.py#clamp',
        args: '5',
        kind: 'suite',
        out: { returned: '5' },
        site: 'test_traced.py::test_under_a_tracer',
        replay: '[[5], {}]',
      },
    ]);
  });

  it('stops a generated call that runs too long, records it, and generates no more for that function', () => {
    const generated = of('halve_to_zero', 'generated');
    expect(generated.filter((r) => 'threw' in r.out && r.out.threw === 'ProbeTimeout: over 1 s')).toHaveLength(1);
    expect(generated.at(-1)?.out).toEqual({ threw: 'ProbeTimeout: over 1 s' });
    expect(probed.outcomes).toContain('PASSED test_textops.py::test_halve_to_zero');
  });

  it('awaits a coroutine function and records it', () => {
    expect(of('later', 'suite').map((r) => [r.args, r.out])).toEqual([["'x'", { returned: "'xx'" }]]);
  });

  it('records what a generator yielded as its consumer drew it, and that one closed early stopped', () => {
    expect(of('numbers', 'suite').map((r) => [r.args, r.out])).toEqual([
      ['3', { returned: 'Yielded(values=[0, 1, 2])' }],
      ['1000', { returned: 'Yielded(values=[0], stopped=True)' }],
    ]);
    expect(probed.outcomes).toContain('PASSED test_textops.py::test_numbers');
    expect(probed.outcomes).toContain('PASSED test_textops.py::test_numbers_first_only');
  });
});

describe("the Python probe's canonical text and limits (the runtime driven directly)", () => {
  it('writes values as deterministic code, and caps what it generates', async () => {
    const recordFile = join(await tempDir(), 'records.jsonl');
    const run = spawnSync('python3', ['-W', 'error', join(FIXTURES, 'runtime_checks.py'), PYTHON_PROBE_RUNTIME, recordFile], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    const texts = JSON.parse(run.stdout) as Record<string, string | string[]>;
    expect(texts.scalars).toEqual(['None', 'True', '3', '-0.5', 'nan', '-inf', '"it\'s"', "b'\\x00b'"]);
    expect(texts.containers).toEqual(['(1,)', "{'b': 1, 'a': (2, 3)}", '{1, 2, 3}', "frozenset({'a', 'b'})", 'set()']);
    expect(texts.objects).toEqual([
      "Plain(name='p', items=[1, {1, 2}])",
      '<Shown object>',
      'Slotted(a=1)',
      '<function len>',
      '<function Plain.__init__>',
      'ValueError: bad x',
      // What a partial binds is part of it: partial(f, obj) and f are called otherwise.
      'partial(<function max>, 3, key=<function abs>)',
    ]);
    expect(texts.cycle).toBe('[1, [Circular]]');
    expect(texts.deep).toBe('[[[[[…]]]]]');
    const [long, same, other, huge] = texts.long as string[];
    expect(long).toMatch(/^'x{299}…x{79}'…#[0-9a-f]{12}$/);
    expect(same).toBe(long);
    expect(other).not.toBe(long);
    expect(huge).toMatch(/^'x{299}…x{79}'…#[0-9a-f]{12}$/);
    expect(texts.args).toBe("1, 'a', flag=True");
    // A returned object whose class writes its own repr is spelled out too (a parse tree's tokens);
    // as an argument it keeps its repr; a subclass of a builtin value keeps its repr either way.
    expect(texts.returned).toEqual([
      "<Shown object>{tokens=[<Token>{kind='kw'}, <Token>{kind='name'}]}",
      '<Shown object>',
      'Kind.Keyword',
    ]);
    const [negated, plain] = texts.shared as string[];
    expect(negated).not.toBe(plain);
    const all = await records(recordFile);
    const perBase = new Map<string, number>();
    for (const r of all) if (r.kind === 'generated') perBase.set(r.base ?? '', (perBase.get(r.base ?? '') ?? 0) + 1);
    expect(all.filter((r) => r.kind === 'suite')).toHaveLength(32);
    // What a call did to an argument is in the record, though the argument's repr did not change.
    expect(all.find((r) => r.fn === 'checks.py#regroup')).toMatchObject({
      args: '<Shown object>',
      out: { returned: 'None' },
      after: "<Shown object>{tokens=[<Token>{kind='name'}, <Token>{kind='kw'}]}",
    });
    expect(perBase.get("'abc.def', 9, sep='-'")).toBe(56);
    // The change's values made inputs of their own, in the other letter case and one either side.
    const around = all.filter((r) => r.kind === 'generated' && r.base === "'abc.def', 9, sep='-'").map((r) => r.args);
    expect(around).toEqual(
      expect.arrayContaining(["'abc.DEF', 9, sep='-'", "'abc.', 9, sep='-'", "'abc.def', 11, sep='-'", "'def', 9, sep='-'"]),
    );
    expect(perBase.size).toBe(25);
    expect(all.find((r) => r.kind === 'suite')?.site).toBe('callers/caller.py:3');
  });
});

describe('the Python probe with generated calls turned off in its folder', () => {
  it("records the suite's calls and generates none around them", async () => {
    const module = await fixture('textops/textops.py');
    const tests = await fixture('textops/test_textops.py');
    const instrumented = await prepare([module, tests], { 'textops.py': allLines(module[1]) });
    await writeFile(join(instrumented.dir, '.fixloop-probe', 'no-generated-inputs'), '');
    const ran = await pytest(instrumented.dir);
    expect(ran.outcomes).toEqual(plain.outcomes);
    const kept = await records(instrumented.recordFile);
    expect(kept.some((r) => r.kind === 'suite')).toBe(true);
    expect(kept.filter((r) => r.kind === 'generated')).toEqual([]);
  });
});

describe('the Python probe with calls generated around nested functions turned off', () => {
  it('generates around a module-level function, and none around a closure over its enclosing call', async () => {
    const module: [string, string] = [
      'collect.py',
      'def collect(words):\n    seen = []\n\n    def note(word):\n        seen.append(word.upper())\n        return len(seen)\n\n    for word in words:\n        note(word)\n    return seen\n',
    ];
    const tests = "from collect import collect\n\ndef test_collect():\n    assert collect(['a', 'b']) == ['A', 'B']\n";
    const instrumented = await prepare([module, ['test_collect.py', tests]], { 'collect.py': allLines(module[1]) });
    await writeFile(join(instrumented.dir, '.fixloop-probe', 'no-generated-inputs'), 'nested');
    const ran = await pytest(instrumented.dir);
    expect(ran.outcomes).toEqual(['PASSED test_collect.py::test_collect']);
    const generated = (await records(instrumented.recordFile)).filter((r) => r.kind === 'generated');
    expect(generated.some((r) => r.fn === 'collect.py#collect')).toBe(true);
    expect(generated.filter((r) => r.fn.includes('<locals>'))).toEqual([]);
  });
});
