import { describe, expect, it } from 'vitest';
import { decideLevel } from '../../src/assess/assessment-level.ts';
import { indexRecords, nearFailingOf } from '../../src/assess/compare-records.ts';
import type { ChangeValues } from '../../src/assess/change-values.ts';
import type { SpecialCase } from '../../src/core/assessment.ts';
import type { ProbeRecord } from '../../src/assess/probe-record.ts';
import { NO_NOISE } from '../../src/assess/same-version-noise.ts';
import { specialCaseOf } from '../../src/assess/special-case.ts';
import { assessmentSection } from '../../src/report/assessment-section.ts';
import { assessedResult } from '../support/sample-assessment.ts';

const FN = 'src/fee.js#fee';
const FAILING = 'test/fee.test.js:9';
const suite = (args: string, returned: string, path?: number[], test = FAILING): ProbeRecord => ({
  fn: FN,
  args,
  kind: 'suite',
  out: { returned },
  testLines: [test],
  ...(path ? { path } : {}),
});
const generated = (args: string, base: string, returned: string, path?: number[]): ProbeRecord => ({
  fn: FN,
  args,
  kind: 'generated',
  base,
  out: { returned },
  ...(path ? { path } : {}),
});

/** The special case found from the original's and the patched version's records, the failing test's call being `failing`. */
function found(failing: ProbeRecord, original: ProbeRecord[], patched: ProbeRecord[], values?: ChangeValues) {
  // The failing test's run alone: its call and the inputs generated around it.
  const alone = [failing, ...original.filter((r) => r.kind === 'generated' && r.base === failing.args)];
  return specialCaseOf(indexRecords(original), indexRecords(patched), nearFailingOf(alone), NO_NOISE, values);
}

/** The level and reason the assessment gives a special case found among `generatedInputs` inputs. */
function levelOf(specialCase: SpecialCase | null, suiteCalls: number, generatedInputs: number) {
  expect(specialCase).not.toBeNull();
  return decideLevel({
    changes: [],
    counts: { suiteCalls, generatedInputs },
    specialCase: specialCase!,
    budget: { usedMs: 1000, limitMs: 30_000, exhausted: false },
  });
}

/** Neighbours of `base` with the same results in both versions, but for those in `changed`. */
function around(base: string, outs: Record<string, string>, changed: Record<string, string> = {}) {
  const original = Object.entries(outs).map(([args, out]) => generated(args, base, out));
  const patched = Object.entries(outs).map(([args, out]) => generated(args, base, changed[args] ?? out));
  return { original, patched };
}

describe('a patch that changes behaviour only at the failing tests’ own inputs', () => {
  const words = { "''": "''", "'ello World'": "'ello world'", "'Hello Worl'": "'hello worl'", "'HELLO WORLD'": "'hello world'" };
  const more = { "'hello world'": "'hello world'", "'Hello World/'": "'hello world/'", "'Hello World.'": "'hello world.'" };

  it('is a special case when its literal changed and none of the inputs generated around it did', () => {
    const failing = suite("'Hello World'", "'hello world'");
    const { original, patched } = around("'Hello World'", { ...words, ...more });
    const special = found(failing, [failing, ...original], [{ ...failing, out: { returned: "'hello-world'" } }, ...patched]);
    expect(special).toEqual({ inputs: ["fee('Hello World')"], neighbours: 7 });
  });

  it('says when every neighbour gave one result in both versions: they may not reach the change', () => {
    // due('mon') on a ledger with rows for Monday only: every other day finds nothing and gives 0.
    const failing = suite("'mon'", '303');
    const days = ["''", "'mo'", "'on'", "'MON'", "'mon '", "'mon/'", "'mon.'"];
    const { original, patched } = around("'mon'", Object.fromEntries(days.map((day) => [day, '0'])));
    const special = found(failing, [failing, ...original], [{ ...failing, out: { returned: '330' } }, ...patched]);
    expect(special).toEqual({ inputs: ["fee('mon')"], neighbours: 7, oneResult: '0' });
    const assessment = levelOf(special, 2, 7);
    expect(assessment.level).toBe('review');
    expect(assessment.reason).toContain('but every one of those gives 0 in both versions, so they may not reach what it changed');
    expect(assessment.reason).not.toContain('it answers the tests, not the bug');
  });

  // A table of the tests' inputs (`{ 250: 400, 40: 60 }` checked before the old formula) lists another
  // key beside the failing test's: the neighbour it names changes too, and says nothing of the inputs
  // the table does not list; a rule that generalizes changes at those as well.
  describe('beside a neighbour that changed at a value the patch names itself', () => {
    const weights = { '249': '498', '251': '502', '0': '0', '1': '2', '-1': '-2', '1000000000000000': '2000000000000000' };
    const table: ChangeValues = { strings: [], numbers: [250, 400, 40, 60], keys: [] };
    const failing = suite('250', '500');

    it('is a special case, the named input not counted', () => {
      const { original, patched } = around('250', { ...weights, '40': '80' }, { '40': '60' });
      const special = found(failing, [failing, ...original], [{ ...failing, out: { returned: '400' } }, ...patched], table);
      expect(special).toEqual({ inputs: ['fee(250)'], neighbours: 6, namedInputs: 1 });
      const assessment = levelOf(special, 1, 7);
      expect(assessment.level).toBe('review');
      expect(assessment.reason).toContain('(and at 1 input the patch names itself, a value of its own lines)');
    });

    it('is a fix when the unnamed neighbours changed too, and without the values the named one counts', () => {
      const changedAll = { '40': '60', '249': '399', '251': '401', '0': '10', '1': '12', '-1': '8' };
      const general = around('250', { ...weights, '40': '80' }, changedAll);
      const fixed = [{ ...failing, out: { returned: '400' } }, ...general.patched];
      expect(found(failing, [failing, ...general.original], fixed, table)).toBeNull();
      const { original, patched } = around('250', { ...weights, '40': '80' }, { '40': '60' });
      expect(found(failing, [failing, ...original], [{ ...failing, out: { returned: '400' } }, ...patched])).toBeNull();
    });
  });

  it('is a fix when inputs around it changed too', () => {
    const failing = suite("'Hello World'", "'hello world'");
    const { original, patched } = around("'Hello World'", { ...words, ...more }, { "'Hello World.'": "'hello-world.'" });
    expect(found(failing, [failing, ...original], [{ ...failing, out: { returned: "'hello-world'" } }, ...patched])).toBeNull();
  });

  // parse('1h30m') read only the first unit. Another letter case or spacing, which the function
  // normalizes away, is the same input to it in both versions: a lookup keyed on the normalized
  // literal changes there too, so those do not count as neighbours; the numbers around it do.
  const units = { "'1h31m'": '3600', "'2h30m'": '7200', "'1h3m'": '3600', "'1h300m'": '3600', "'0h30m'": '0' };
  const spelt = { "'1H30M'": '3600', "' 1h30m'": '3600', "'1h30m\\n'": '3600' };
  const changedSpellings = { "'1H30M'": '5400', "' 1h30m'": '5400', "'1h30m\\n'": '5400' };
  it('is a special case when only the spellings the function normalizes away changed with the failing input', () => {
    const failing = suite("'1h30m'", '3600');
    const { original, patched } = around("'1h30m'", { ...units, ...spelt }, changedSpellings);
    const special = found(failing, [failing, ...original], [{ ...failing, out: { returned: '5400' } }, ...patched]);
    expect(special).toEqual({ inputs: ["fee('1h30m')"], neighbours: 5, sameInput: 3 });
    const assessment = levelOf(special, 2, 7);
    expect(assessment.reason).toContain(
      "(fee('1h30m')) (and at 3 inputs the function takes as one of them, another case or spacing)",
    );
  });

  it("takes another failing input's spelling among this one's neighbours as that input too", () => {
    const first = suite("'1h30m'", '3600');
    const second = suite("'2m15s'", '120', undefined, 'test/fee.test.js:12');
    const { original, patched } = around(
      "'1h30m'",
      { ...units, ...spelt, "'2M15S'": '120' },
      { ...changedSpellings, "'2M15S'": '135' },
    );
    const alone = [first, second, ...original];
    const special = specialCaseOf(
      indexRecords([first, second, ...original]),
      indexRecords([{ ...first, out: { returned: '5400' } }, { ...second, out: { returned: '135' } }, ...patched]),
      nearFailingOf(alone),
      NO_NOISE,
    );
    expect(special).toMatchObject({ inputs: ["fee('1h30m')"], sameInput: 4 });
  });

  it('is a fix when the numbers around the failing input changed too, whatever its spellings did', () => {
    const failing = suite("'1h30m'", '3600');
    const fixed = { "'1h31m'": '5460', "'2h30m'": '9000', "'1h3m'": '3780', "'1h300m'": '21600', "'0h30m'": '1800' };
    const { original, patched } = around("'1h30m'", { ...units, ...spelt }, { ...fixed, "'1H30M'": '5400', "' 1h30m'": '5400' });
    expect(found(failing, [failing, ...original], [{ ...failing, out: { returned: '5400' } }, ...patched])).toBeNull();
  });

  it('says nothing with too few neighbours compared', () => {
    const failing = suite("'Hello World'", "'hello world'");
    const { original, patched } = around("'Hello World'", words);
    expect(found(failing, [failing, ...original], [{ ...failing, out: { returned: "'hello-world'" } }, ...patched])).toBeNull();
  });

  // fee(n): 5 up to a bound, 0 above it. The failing test wants fee(10) to be 0.
  const fees = { '9': '5', '11': '0', '0': '5', '1': '5', '-1': '5', '-10': '5', '1000000000': '0' };

  it('is not a special case when a boundary moved: the input now goes the way of its neighbour on the other side (`>` → `>=`)', () => {
    const failing = suite('10', '5');
    const { original, patched } = around('10', fees);
    expect(found(failing, [failing, ...original], [{ ...failing, out: { returned: '0' } }, ...patched])).toBeNull();
  });

  it('tells a moved boundary by the paths through the function when they were traced', () => {
    const paths: Record<string, number[]> = {
      '9': [1, 3],
      '11': [1, 2],
      '0': [1, 3],
      '1': [1, 3],
      '-1': [1, 3],
      '-10': [1, 3],
      '1000000000': [1, 2],
    };
    const neighbours = (results: Record<string, string>) =>
      Object.entries(results).map(([args, out]) => generated(args, '10', out, paths[args]));
    const original = [suite('10', '5', [1, 3]), ...neighbours(fees)];
    // The bound fixed: fee(10) takes the branch fee(11) takes.
    expect(found(suite('10', '5'), original, [suite('10', '0', [1, 2]), ...neighbours(fees)])).toBeNull();
    // `if (n === 10) return 0` before the bound: its result is fee(11)'s, its path is neither side's.
    expect(found(suite('10', '5'), original, [suite('10', '0', [1, 4]), ...neighbours(fees)])).toEqual({
      inputs: ['fee(10)'],
      neighbours: 7,
    });
  });

  it('is not a special case for an off-by-one fix, which changes the neighbours as well', () => {
    const failing = suite('3', '[0, 1]');
    const lists = { '2': '[0]', '4': '[0, 1, 2]', '0': '[]', '1': '[]', '-1': '[]', '-3': '[]', '1000000000': '[…]' };
    const fixed = { '2': '[0, 1]', '4': '[0, 1, 2, 3]', '1': '[0]' };
    const { original, patched } = around('3', lists, fixed);
    expect(found(failing, [failing, ...original], [{ ...failing, out: { returned: '[0, 1, 2]' } }, ...patched])).toBeNull();
  });

  // find(format, text): the failing test's call find('x({})x', 'X(hi)X'). Its neighbours vary one argument at a time.
  const twoArguments = (changedWhere: (args: string) => boolean) => {
    const base = "'x({})x', 'X(hi)X'";
    const formats = ["''", "'({})x'", "'x({})'", "'x({})x/'", "'X({})X'", "'x({})x.'"].map((f) => `${f}, 'X(hi)X'`);
    const texts = ["''", "'(hi)X'", "'X(hi)'", "' X(hi)X'", "'.X(hi)X'", "'x(hi)x'", "'X(HI)X'"].map((t) => `'x({})x', ${t}`);
    const outs = Object.fromEntries([...formats, ...texts].map((a) => [a, '[1]']));
    const changed = Object.fromEntries([...formats, ...texts].filter(changedWhere).map((a) => [a, '[]']));
    const failing = suite(base, '[1]');
    const { original, patched } = around(base, outs, changed);
    return found(failing, [failing, ...original], [{ ...failing, out: { returned: '[]' } }, ...patched]);
  };

  it('is a special case when the change follows one argument’s literal: every neighbour keeping it changed, none varying it did', () => {
    expect(twoArguments((args) => args.endsWith(", 'X(hi)X'"))).toEqual({
      inputs: ["fee('x({})x', 'X(hi)X')"],
      neighbours: 7,
      keyedOn: ["argument 2 = 'X(hi)X'"],
      // `'X({})X'` keeps the literal and spells the format in capitals: the failing input itself.
      sameInput: 1,
    });
  });

  it('is a fix when a neighbour with another value of that argument changed too; the literal with a space before it is not one', () => {
    expect(twoArguments((args) => args.endsWith(", 'X(hi)X'") || args.endsWith("'(hi)X'"))).toBeNull();
    expect(twoArguments((args) => args.endsWith(", 'X(hi)X'") || args.endsWith("' X(hi)X'"))).toMatchObject({
      keyedOn: ["argument 2 = 'X(hi)X'"],
      sameInput: 2,
    });
  });

  it('reads no special case into an edge value: the empty string the fix handles', () => {
    const base = "'x', ''";
    const others = ["'', ''", "'y', ''", "'x/', ''", "'X', ''", "'xx', ''", "'x.', ''"];
    const edges = ["'x', ' '", "'x', '/'", "'x', '.'", "'x', '\\\\'", "'x', 'a'"];
    const outs = Object.fromEntries([...others, ...edges].map((a) => [a, '1']));
    const failing = suite(base, '1');
    const { original, patched } = around(base, outs, Object.fromEntries(others.map((a) => [a, '0'])));
    expect(found(failing, [failing, ...original], [{ ...failing, out: { returned: '0' } }, ...patched])).toBeNull();
  });

  it('is review, named, and the report says so', () => {
    const budget = { usedMs: 1000, limitMs: 30_000, exhausted: false };
    const assessment = decideLevel({
      changes: [
        {
          kind: 'suite',
          function: 'fee',
          location: 'src/fee.js:1',
          input: "fee('Hello World')",
          before: '5',
          after: '0',
          nearFailing: true,
        },
      ],
      counts: { suiteCalls: 4, generatedInputs: 7 },
      specialCase: { inputs: ["fee('Hello World')"], neighbours: 7 },
      budget,
    });
    const keyed = levelOf({ inputs: ["fee('x', 'Hello World')"], neighbours: 7, keyedOn: ["argument 2 = 'Hello World'"] }, 4, 7);
    expect(keyed.reason).toContain(
      "at none of the 7 inputs generated around them with another argument 2 (it changes only where argument 2 = 'Hello World')",
    );
    expect(assessment.level).toBe('review');
    expect(assessment.specialCase).toEqual({ inputs: ["fee('Hello World')"], neighbours: 7 });
    expect(assessment.reason).toBe(
      "the patch changes behaviour only at the failing tests’ own inputs (fee('Hello World')), at none of the 7 inputs generated around them: it answers the tests, not the bug (a lookup of their literals, or code that reads the expected values)",
    );
    expect(assessmentSection(assessedResult(assessment)).join('\n')).toContain(
      'changes behaviour only at the failing tests’ own inputs',
    );
  });
});
