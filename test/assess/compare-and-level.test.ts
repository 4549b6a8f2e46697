import { describe, expect, it } from 'vitest';
import { compareVersions, indexRecords, nearFailingOf } from '../../src/assess/compare-records.ts';
import { decideLevel } from '../../src/assess/assessment-level.ts';
import { applyInMemory, lineChanges, mapOldLine } from '../../src/assess/patched-versions.ts';
import { planVersions } from '../../src/assess/probe-plan.ts';
import type { ProbeRecord, ProbedFunction } from '../../src/assess/probe-record.ts';

const FN = 'src/path.js#isAbsolute';
const functions = new Map<string, ProbedFunction>([[FN, { id: FN, name: 'isAbsolute', path: 'src/path.js', line: 3 }]]);
const suite = (args: string, returned: string, site = 'test/path.test.js:4'): ProbeRecord => ({
  fn: FN,
  args,
  kind: 'suite',
  out: { returned },
  site,
});
const generated = (args: string, base: string, out: ProbeRecord['out']): ProbeRecord => ({
  fn: FN,
  args,
  kind: 'generated',
  base,
  out,
});
const budget = { usedMs: 1200, limitMs: 30_000, exhausted: false };

describe('comparing what two versions recorded', () => {
  it('finds a generated input whose result changed, outside the failing tests, and one near them apart', () => {
    const before = indexRecords([
      suite("'/usr/lib'", 'true'),
      suite("'C:\\\\x'", 'false'),
      generated("'usr/lib'", "'/usr/lib'", { returned: 'false' }),
      generated("'C:\\\\'", "'C:\\\\x'", { returned: 'false' }),
    ]);
    const after = indexRecords([
      suite("'/usr/lib'", 'true'),
      suite("'C:\\\\x'", 'true'),
      generated("'usr/lib'", "'/usr/lib'", { returned: 'true' }),
      generated("'C:\\\\'", "'C:\\\\x'", { returned: 'true' }),
    ]);
    const failing = nearFailingOf([suite("'C:\\\\x'", 'false')]);
    const { changes, generatedCompared } = compareVersions(before, after, functions, failing);
    expect(generatedCompared).toBe(2);
    expect(changes.map((c) => [c.kind, c.input, c.before, c.after, c.nearFailing])).toEqual([
      ['generated', "isAbsolute('usr/lib')", 'false', 'true', false],
      ['suite', "isAbsolute('C:\\\\x')", 'false', 'true', true],
      ['generated', "isAbsolute('C:\\\\')", 'false', 'true', true],
    ]);
    expect(changes[0]?.location).toBe('src/path.js:3');
  });

  it("counts another test's call near when it has a failing test's arguments and changed just as that test's call did", () => {
    const failingCall = suite("'C:\\\\x'", 'false', 'test/path.test.js:9');
    const before = indexRecords([
      failingCall,
      suite("'C:\\\\x'", 'false', 'test/other.test.js:2'),
      suite("'C:\\\\x'", 'false', 'test/third.test.js:5'),
    ]);
    // The third test's call changed otherwise (it threw): not the fix as the failing test shows it.
    const after = indexRecords([
      { ...failingCall, out: { returned: 'true' } },
      suite("'C:\\\\x'", 'true', 'test/other.test.js:2'),
      { ...suite("'C:\\\\x'", 'false', 'test/third.test.js:5'), out: { threw: 'TypeError: bad' } },
    ]);
    const { changes } = compareVersions(before, after, functions, nearFailingOf([failingCall]));
    expect(changes.map((c) => [c.test, c.nearFailing])).toEqual([
      ['test/third.test.js:5', false],
      ['test/path.test.js:9', true],
      ['test/other.test.js:2', true],
    ]);
  });

  it('counts an input generated around a passing call as near the failing tests when it is as like a failing input as its base', () => {
    const records = (fixed: boolean) => [
      suite("'/usr/lib'", 'true'),
      suite("'C:/x'", 'true'),
      suite("'C:\\\\x'", String(fixed)),
      generated("'C:\\\\/x'", "'C:/x'", { returned: String(fixed) }),
      generated("'usr/lib'", "'/usr/lib'", { returned: String(fixed) }),
    ];
    const near = nearFailingOf([suite("'C:\\\\x'", 'false')]);
    const { changes } = compareVersions(indexRecords(records(false)), indexRecords(records(true)), functions, near);
    expect(changes.map((c) => [c.input, c.nearFailing])).toEqual([
      ["isAbsolute('usr/lib')", false],
      ["isAbsolute('C:\\\\x')", true],
      ["isAbsolute('C:\\\\/x')", true],
    ]);
  });

  it('never counts an input the original ran as a passing test near; numbers are as near as their values', () => {
    // grade(score): `if (score >= 90) A; if (score <= 50) C; F` with `<=` where `>=` was meant.
    const GRADE = 'src/grade.js#grade';
    const fns = new Map<string, ProbedFunction>([[GRADE, { id: GRADE, name: 'grade', path: 'src/grade.js', line: 1 }]]);
    const call = (args: string, returned: string, path: number[], site: string): ProbeRecord => ({
      fn: GRADE,
      args,
      kind: 'suite',
      out: { returned },
      site,
      path,
    });
    const around = (args: string, base: string, returned: string, path: number[]): ProbeRecord => ({
      fn: GRADE,
      args,
      kind: 'generated',
      base,
      out: { returned },
      path,
    });
    const A = [0, 1];
    const C = [0, 2, 3];
    const F = [0, 2, 4];
    const failingCall = call('20', "'C'", C, 'test/grade.test.js:5');
    const before = indexRecords([
      call('95', "'A'", A, 'test/grade.test.js:3'),
      failingCall,
      around('-95', '95', "'C'", C),
      around('94', '20', "'A'", A),
      around('21', '20', "'C'", C),
    ]);
    const after = indexRecords([
      call('95', "'A'", A, 'test/grade.test.js:3'),
      { ...failingCall, out: { returned: "'F'" } },
      around('-95', '95', "'F'", F),
      around('94', '20', "'B'", F),
      around('21', '20', "'F'", F),
    ]);
    const { changes } = compareVersions(before, after, fns, nearFailingOf([failingCall]));
    expect(changes.map((c) => [c.input, c.nearFailing, c.pathLike])).toEqual([
      // Generated around the failing call, but the original ran it as the passing test's A: the tests say A was right.
      ['grade(94)', false, 'passing'],
      ['grade(20)', true, undefined],
      ['grade(21)', true, 'failing'],
      // Generated around the passing 95, yet nearer to the failing 20 (115 against 190), and run as it was.
      ['grade(-95)', true, 'failing'],
    ]);
  });

  it('does not count an input near for its path alone: the original runs every non-absolute path one way', () => {
    // isAbsolute: `if (/^[A-Za-z]:\//.test(p)) return true; return p.startsWith('/') && …`, patched to `||`.
    const failingCall = { ...suite("'C:\\\\x'", 'false'), path: [0, 2] };
    const before = indexRecords([
      { ...suite("'/usr/lib'", 'true'), path: [0, 2, 3] },
      { ...suite("'C:/x'", 'true'), path: [0, 1] },
      failingCall,
      { ...generated("'usr/lib'", "'/usr/lib'", { returned: 'false' }), path: [0, 2] },
    ]);
    const after = indexRecords([
      { ...suite("'/usr/lib'", 'true'), path: [0, 2, 3] },
      { ...suite("'C:/x'", 'true'), path: [0, 1] },
      { ...failingCall, out: { returned: 'true' } },
      { ...generated("'usr/lib'", "'/usr/lib'", { returned: 'true' }), path: [0, 2, 3] },
    ]);
    const { changes } = compareVersions(before, after, functions, nearFailingOf([failingCall]));
    expect(changes.map((c) => [c.input, c.nearFailing, c.pathLike])).toEqual([
      ["isAbsolute('usr/lib')", false, 'failing'],
      ["isAbsolute('C:\\\\x')", true, undefined],
    ]);
  });

  it("counts an input near when the original threw on it what it threw on a failing test's call", () => {
    const crash = { threw: 'IndexError: list index out of range' };
    const failingCall: ProbeRecord = { fn: FN, args: "'a', [None, 2]", kind: 'suite', out: crash, site: 'test_t.py::test_fold' };
    const before = indexRecords([
      failingCall,
      suite("'b'", "'b'"),
      generated("''", "'b'", crash),
      generated("'bb'", "'b'", { threw: 'KeyError: x' }),
    ]);
    const after = indexRecords([
      { ...failingCall, out: { returned: "'a'" } },
      suite("'b'", "'b'"),
      generated("''", "'b'", { returned: "''" }),
      generated("'bb'", "'b'", { returned: "''" }),
    ]);
    const { changes } = compareVersions(before, after, functions, nearFailingOf([failingCall]));
    expect(changes.map((c) => [c.input, c.nearFailing])).toEqual([
      ["isAbsolute('bb')", false],
      ["isAbsolute('a', [None, 2])", true],
      ["isAbsolute('')", true],
    ]);
  });

  it('counts an input the patch now throws on as outside the failing tests, near them or not, unless the fix makes them throw', () => {
    const crash = { threw: 'IndexError: list index out of range' };
    const failingCall: ProbeRecord = {
      fn: FN,
      args: "[], headers=['a']",
      kind: 'suite',
      out: crash,
      site: 'test_t.py::test_empty',
    };
    const around = (args: string, out: ProbeRecord['out']) => generated(args, "[], headers=['a']", out);
    const before = indexRecords([
      failingCall,
      around('[], headers=[]', crash),
      around("[], headers=['b']", crash),
      around("[[1]], headers=['a']", { returned: "'a\\n1'" }),
    ]);
    const after = (failingOut: ProbeRecord['out']) =>
      indexRecords([
        { ...failingCall, out: failingOut },
        // The bug's own class, still failing (another error now): not what the tests asked for.
        around('[], headers=[]', { threw: "TypeError: can't multiply sequence by non-int of type 'NoneType'" }),
        around("[], headers=['b']", { returned: "'b'" }),
        // Answered before, throws now: a regression.
        around("[[1]], headers=['a']", { threw: 'TypeError: x' }),
      ]);
    const near = (failingOut: ProbeRecord['out']) =>
      compareVersions(before, after(failingOut), functions, nearFailingOf([failingCall])).changes.map((c) => [
        c.input,
        c.nearFailing,
      ]);
    expect(near({ returned: "'a'" })).toEqual([
      ['isAbsolute([], headers=[])', false],
      ["isAbsolute([[1]], headers=['a'])", false],
      ["isAbsolute([], headers=['a'])", true],
      ["isAbsolute([], headers=['b'])", true],
    ]);
    // A check added: the failing test's call throws now, and so may the inputs around it.
    expect(near({ threw: 'ValueError: no rows' })).toEqual([
      ["isAbsolute([], headers=['a'])", true],
      ['isAbsolute([], headers=[])', true],
      ["isAbsolute([], headers=['b'])", true],
      ["isAbsolute([[1]], headers=['a'])", true],
    ]);
  });

  it("counts a bare method's field set otherwise as outside the failing tests: its base names no object", () => {
    // help() is called bare by every test: the field changes were made on some test's object, not
    // necessarily the failing one's, and the changes seen there are not the fix at work near it.
    const HELP = 'src/cli.js#Cli.help';
    const helpFunctions = new Map<string, ProbedFunction>([[HELP, { id: HELP, name: 'help', path: 'src/cli.js', line: 9 }]]);
    const call = (out: string): ProbeRecord => ({
      fn: HELP,
      args: '',
      kind: 'suite',
      out: { returned: out },
      site: 'test/cli.test.js:4',
    });
    const field = (out: string): ProbeRecord => ({ ...generated('this.wide=true', '', { returned: out }), fn: HELP });
    const heldArg = (out: string): ProbeRecord => ({
      ...generated('Opts { w: 1 }, arg1.w=2', 'Opts { w: 1 }', { returned: out }),
      fn: HELP,
    });
    const before = indexRecords([call("'a'"), field("'b'"), heldArg("'c'")]);
    const after = indexRecords([call("'A'"), field("'B'"), heldArg("'C'")]);
    const failing = nearFailingOf([call("'a'"), field("'b'"), { ...call("'x'"), args: 'Opts { w: 1 }' }, heldArg("'c'")]);
    expect(failing.around.get(`${HELP}\u0000`)).toBeUndefined();
    const { changes, argumentsVaried } = compareVersions(before, after, helpFunctions, failing);
    expect(argumentsVaried).toBe(0);
    expect(changes.map((c) => [c.input, c.nearFailing])).toEqual(
      expect.arrayContaining([
        ['help()', true],
        ['help(this.wide=true)', false],
        // An object argument's field: its base names that object, so it is near a failing call on it.
        ['help(Opts { w: 1 }, arg1.w=2)', true],
      ]),
    );
  });

  it("falls back to the inputs' likeness where every test runs the function the same way", () => {
    const same = [0, 1];
    const records = (fixed: boolean) => [
      { ...suite("'/usr/lib'", 'true'), path: same },
      { ...suite("'C:\\\\x'", String(fixed)), path: same },
      { ...generated("'usr/lib'", "'/usr/lib'", { returned: String(fixed) }), path: same },
    ];
    const near = nearFailingOf([{ ...suite("'C:\\\\x'", 'false'), path: same }]);
    const { changes } = compareVersions(indexRecords(records(false)), indexRecords(records(true)), functions, near);
    expect(changes.map((c) => [c.input, c.nearFailing, c.pathLike])).toEqual([
      ["isAbsolute('usr/lib')", false, undefined],
      ["isAbsolute('C:\\\\x')", true, undefined],
    ]);
  });

  it('counts a change elsewhere near when it is made only of the text edits the fix made near the failing tests', () => {
    // A fix that drops a line's trailing blank: the failing test's text, and texts no test wrote.
    const wrapped = (text: string) => `'${text.replace(/ \n/g, ' \\n')}'`;
    const trimmed = (text: string) => `'${text.replace(/ \n/g, '\\n')}'`;
    const failingCall = suite("'Lorem ipsum dolor'", wrapped('Lorem \n ipsum \n dolor'), 'test/wrap.test.js:9');
    const records = (fixed: boolean) => {
      const out = fixed ? trimmed : wrapped;
      return [
        suite("'a'", "'a'"),
        { ...failingCall, out: { returned: out('Lorem \n ipsum \n dolor') } },
        generated("'cheese type'", "'a'", { returned: out('cheese \n type') }),
        // Another edit beside the fix's (a letter raised), and the fix's blank dropped between two words.
        generated("'cheese kind'", "'a'", { returned: fixed ? "'cheese\\n Kind'" : "'cheese \\n kind'" }),
        generated("'cheese mix'", "'a'", { returned: fixed ? "'cheesemix'" : "'cheese mix'" }),
      ];
    };
    const { changes } = compareVersions(
      indexRecords(records(false)),
      indexRecords(records(true)),
      functions,
      nearFailingOf([failingCall]),
    );
    expect(changes.map((c) => [c.input, c.nearFailing])).toEqual([
      ["isAbsolute('cheese mix')", false],
      ["isAbsolute('cheese kind')", false],
      ["isAbsolute('Lorem ipsum dolor')", true],
      ["isAbsolute('cheese type')", true],
    ]);
  });

  it("keeps a passing test's call outside the failing tests even when its result changed only by the text edits of the failing tests' own calls: an overbroad condition repeats the fix's edit there too", () => {
    const failingCall = suite("'{}'", "re.compile('^(.+?)$')", 'test/parse.test.js:3');
    const before = indexRecords([failingCall, suite("'{:d}'", "re.compile('^(d+)$')"), suite("'{:n}'", '10000')]);
    const after = indexRecords([
      { ...failingCall, out: { returned: "re.compile('\\A(.+?)\\Z')" } },
      suite("'{:d}'", "re.compile('\\A(d+)\\Z')"),
      // A number is never read as edited: a broadened condition repeats a flip.
      suite("'{:n}'", '10001'),
    ]);
    const { changes } = compareVersions(before, after, functions, nearFailingOf([failingCall]));
    expect(changes.map((c) => [c.input, c.nearFailing])).toEqual([
      ["isAbsolute('{:d}')", false],
      ["isAbsolute('{:n}')", false],
      ["isAbsolute('{}')", true],
    ]);
  });

  it("counts a passing test's call near when it now throws the error the fix made the failing tests' calls throw", () => {
    const failingCall = suite("'a: 1 b: 2'", 'true', 'test/load.test.js:3');
    const fixError = (at: string) => `YAMLException: bad indentation of a mapping entry (${at})`;
    const before = indexRecords([
      failingCall,
      suite("'a: b: c'", 'true', 'test/errors.test.js:7'),
      suite("'[a'", 'false', 'test/errors.test.js:7'),
      suite("'? a'", 'false', 'test/errors.test.js:7'),
    ]);
    const after = indexRecords([
      { ...failingCall, out: { threw: fixError('1:6') } },
      // The fix's own check, with its own position: an input its test already expected rejected.
      { ...suite("'a: b: c'", 'true', 'test/errors.test.js:7'), out: { threw: fixError('1:4').replace(' (', ' in "b.yml" (') } },
      // Another error, or one too short to tell which check threw: changes outside the failing tests.
      { ...suite("'[a'", 'false', 'test/errors.test.js:7'), out: { threw: 'YAMLException: unexpected end of the stream' } },
      { ...suite("'? a'", 'false', 'test/errors.test.js:7'), out: { threw: 'TypeError: bad' } },
    ]);
    const { changes } = compareVersions(before, after, functions, nearFailingOf([failingCall]));
    expect(changes.map((c) => [c.input, c.nearFailing])).toEqual([
      ["isAbsolute('[a')", false],
      ["isAbsolute('? a')", false],
      ["isAbsolute('a: b: c')", true],
      ["isAbsolute('a: 1 b: 2')", true],
    ]);
  });

  it('counts a thrown error, changed arguments and a changed receiver as results, and compares only calls both versions made', () => {
    const before = indexRecords([
      suite('[1]', 'undefined'),
      generated("''", '[1]', { threw: 'TypeError: bad' }),
      generated('[]', '[1]', { returned: '0' }),
    ]);
    const after = indexRecords([
      { ...suite('[1]', 'undefined'), after: '[1, 1]' },
      generated("''", '[1]', { threw: 'TypeError: bad' }),
    ]);
    const { changes, generatedCompared } = compareVersions(before, after, functions, nearFailingOf([]));
    expect(generatedCompared).toBe(1);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      kind: 'suite',
      before: 'undefined',
      after: 'undefined (arguments after: [1, 1])',
      test: 'test/path.test.js:4',
    });
    // A method that now leaves its receiver otherwise changed what it did, whatever it returned.
    const receiver = compareVersions(
      indexRecords([{ ...suite('[1]', 'undefined'), thisAfter: 'Parser { depth: 1 }' }]),
      indexRecords([{ ...suite('[1]', 'undefined'), thisAfter: 'Parser { depth: 2 }' }]),
      functions,
      nearFailingOf([]),
    );
    expect(receiver.changes[0]).toMatchObject({
      before: 'undefined (this after: Parser { depth: 1 })',
      after: 'undefined (this after: Parser { depth: 2 })',
    });
  });
});

describe('the level', () => {
  const change = { kind: 'generated' as const, function: 'f', location: 'a.js:1', input: 'f(1)', before: '1', after: '2' };

  it('is verified when nothing changed outside the failing tests, and says what was looked at', () => {
    const level = decideLevel({
      changes: [{ ...change, nearFailing: true }],
      counts: { suiteCalls: 12, generatedInputs: 340 },
      budget,
    });
    expect(level.level).toBe('verified');
    expect(level.reason).toBe('no behaviour change outside the failing tests in 12 calls of the suite and 340 generated inputs');
    expect(level.counts).toEqual({ suiteCalls: 12, generatedInputs: 340, changes: 1, nearFailing: 1 });
  });

  it('is review when the patch gives its result only under the test runner, naming the call', () => {
    const runnerOnly = { function: 'f', location: 'a.js:1', input: 'f(1)', original: '1', underRunner: '2', outside: '1' };
    const level = decideLevel({
      changes: [{ ...change, nearFailing: true }],
      counts: { suiteCalls: 12, generatedInputs: 340 },
      outsideLook: { called: 4, reproduced: 3, runnerOnly: [runnerOnly], count: 2 },
      budget,
    });
    expect(level.level).toBe('review');
    expect(level.reason).toBe(
      'the patch works only under the test runner, beside its tests: `f(1)` (and 1 other call) gives 2 there, but 1 in a plain process without the tests, where the original gives 1 in both',
    );
    expect(level.outsideLook?.count).toBe(2);
    const honest = decideLevel({
      changes: [{ ...change, nearFailing: true }],
      counts: { suiteCalls: 12, generatedInputs: 340 },
      outsideLook: { called: 4, reproduced: 3, runnerOnly: [], count: 0 },
      budget,
    });
    expect(honest.level).toBe('verified');
  });

  it('is review when the fix is off with the settings a deployed program runs with, naming the call', () => {
    const off = { function: 'f', location: 'a.js:1', input: 'f(1)', original: '1', underRunner: '2', outside: '1' };
    /** The level where the fix is off on `count` calls with the deployed settings. */
    const levelWith = (count: number) =>
      decideLevel({
        changes: [{ ...change, nearFailing: true }],
        counts: { suiteCalls: 12, generatedInputs: 340 },
        outsideLook: {
          called: 4,
          reproduced: 4,
          runnerOnly: [],
          count: 0,
          offWhereDeployed: { settings: 'NODE_ENV=production', called: 4, calls: count ? [off] : [], count },
        },
        budget,
      });
    const level = levelWith(1);
    expect(level.level).toBe('review');
    expect(level.reason).toBe(
      'the fix is off where the program is deployed: with NODE_ENV=production, `f(1)` gives 1, as the original does, against 2 under the runner: is it made for development and the tests only?',
    );
    expect(levelWith(0).level).toBe('verified');
  });

  it('is review for a change outside the failing tests, a weakened check, an ambiguity, or when it could not look', () => {
    expect(decideLevel({ changes: [{ ...change, nearFailing: false }], budget }).reason).toBe(
      '1 behaviour change outside the failing tests',
    );
    expect(decideLevel({ chosen: { summary: 's', weakens: 'weakens the check that throws' }, budget }).level).toBe('review');
    const ambiguous = decideLevel({
      alternatives: [
        {
          info: { patch: 'p', summary: 'a.js: x < y → x <= y' },
          disagreements: [{ input: 'f(2)', chosen: '1', alternative: '2' }],
        },
      ],
      budget,
    });
    expect(ambiguous.reason).toBe('1 other plausible patch gives other results: the tests do not decide between them');
    const weakening = decideLevel({
      alternatives: [
        {
          info: { patch: 'p', summary: 's', weakens: 'weakens the check that throws "bad"' },
          disagreements: [{ input: 'f(2)', chosen: '1', alternative: 'undefined' }],
        },
      ],
      budget,
    });
    expect(weakening.level).toBe('verified');
    expect(weakening.alternatives[0]?.passedOver).toBe('it weakens the check that throws "bad"');
    // A weakening one that gives a failing test's own call another result: that test accepts both.
    const own = {
      input: "help({ args: ['file'] })",
      chosen: "'\\nArguments:\\n  file'",
      alternative: "'Arguments:\\n  file'",
      atFailingTests: true as const,
    };
    const looseTest = decideLevel({
      alternatives: [
        {
          info: { patch: 'p', summary: "deleted `lines.push('')`", weakens: "removes the call `lines.push('')`" },
          disagreements: [{ input: 'help({})', chosen: "''", alternative: "'x'" }, own],
        },
      ],
      budget,
    });
    expect(looseTest.reason).toBe('1 other plausible patch gives other results: the tests do not decide between them');
    expect(looseTest.alternatives[0]?.disagreements[0]).toEqual(own);
    // Probes that saw no change at all, even where the failing tests now pass, did not see the fix work.
    const unseen = decideLevel({ changes: [], counts: { suiteCalls: 40, generatedInputs: 200 }, budget });
    expect(unseen.level).toBe('review');
    expect(unseen.reason).toMatch(/^the probes saw no change at all, not even in the failing tests that pass now/);
    const blind = decideLevel({
      notAssessed: 'the patch changes no JavaScript, TypeScript or Python source file outside the tests',
      budget,
    });
    expect([blind.level, blind.notAssessed]).toEqual([
      'review',
      'the patch changes no JavaScript, TypeScript or Python source file outside the tests',
    ]);
  });

  it('is review when only the suite’s own calls were compared: nothing beyond what the tests check was tried', () => {
    const near = [{ ...change, kind: 'suite' as const, nearFailing: true }];
    const suiteOnly = decideLevel({ changes: near, counts: { suiteCalls: 73, generatedInputs: 0 }, budget });
    expect(suiteOnly.level).toBe('review');
    expect(suiteOnly.reason).toMatch(/^only the suite’s own calls were compared: no input could be generated around them/);
    expect(decideLevel({ changes: near, counts: { suiteCalls: 73, generatedInputs: 1 }, budget }).level).toBe('verified');
    // A lint fix is meant to change nothing: there is nothing to generate evidence of.
    expect(
      decideLevel({ changes: near, counts: { suiteCalls: 73, generatedInputs: 0 }, budget, behaviourUnchanged: true }).level,
    ).toBe('verified');
  });

  it('is review when its time ran out before it finished looking, saying how far it went and what gives it more', () => {
    const near = [{ ...change, nearFailing: true }];
    const cut = decideLevel({ changes: near, budget: { usedMs: 123_000, limitMs: 120_000, exhausted: true } });
    expect(cut.level).toBe('review');
    expect(cut.reason).toBe(
      "the assessment's time ran out before it had compared everything (`assessment.timeBudget` gives it more than 120.0 s): what else the patch changes was not all seen",
    );
    const search = { candidates: 34, tried: 11, passedFailing: 6, stopped: 'time' as const };
    const stopped = decideLevel({ changes: near, budget, rivalSearch: search });
    expect(stopped.level).toBe('review');
    expect(stopped.reason).toMatch(
      /^the assessment's time ran out after 11 of the 34 one-edit patches at the lines the patch changed were tried/,
    );
    // A search that ended because one rival was enough, or that tried every candidate, finished.
    expect(decideLevel({ changes: near, budget, rivalSearch: { ...search, stopped: 'enough' } }).level).toBe('verified');
    expect(decideLevel({ changes: near, budget, rivalSearch: { candidates: 34, tried: 34, passedFailing: 6 } }).level).toBe(
      'verified',
    );
  });
});

describe('the versions compared', () => {
  const original = 'function a(x) {\n  return x;\n}\n\nfunction b(y) {\n  return y + 1;\n}\n';
  const patch = [
    'diff --git a/src/m.js b/src/m.js',
    '--- a/src/m.js',
    '+++ b/src/m.js',
    '@@ -1,3 +1,4 @@',
    ' function a(x) {',
    '+  x = x || 0;',
    '   return x;',
    ' }',
    '',
  ].join('\n');
  const other = [
    'diff --git a/src/m.js b/src/m.js',
    '--- a/src/m.js',
    '+++ b/src/m.js',
    '@@ -5,3 +5,3 @@',
    ' function b(y) {',
    '-  return y + 1;',
    '+  return y + 2;',
    ' }',
    '',
  ].join('\n');

  it('applies patches in memory and probes, in every version, each function any patch changed', async () => {
    const read = async (path: string) => (path === 'src/m.js' ? original : null);
    const chosen = await applyInMemory('patch', patch, read);
    const alternative = await applyInMemory('alternative-1', other, read);
    expect(chosen.files.get('src/m.js')).toContain('x = x || 0;');
    const plans = planVersions(new Map([['src/m.js', original]]), [chosen, alternative], () => true);
    expect([...(plans.original.files.get('src/m.js')?.lines ?? [])].sort((x, y) => x - y)).toEqual([1, 2, 6]);
    // The chosen patch: its own line 2, and b's changed line 6, moved to 7 by the inserted line.
    expect([...(plans.versions[0]?.files.get('src/m.js')?.lines ?? [])].sort((x, y) => x - y)).toEqual([1, 2, 3, 7]);
    expect([...(plans.versions[1]?.files.get('src/m.js')?.lines ?? [])].sort((x, y) => x - y)).toEqual([1, 2, 6]);
  });

  it('maps unchanged lines across a hunk and none inside it', () => {
    const { hunks } = lineChanges('a\nb\nc\nd\n', 'a\nX\nb\nc\n');
    expect([1, 2, 3, 4].map((l) => mapOldLine(hunks, l))).toEqual([1, 3, 4, null]);
  });

  it('refuses a patch that does not apply', async () => {
    await expect(applyInMemory('patch', other, async () => 'nothing like it\n')).rejects.toThrow(/does not apply to src\/m.js/);
  });
});
