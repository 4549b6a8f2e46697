// The look from outside the runner's rule (src/assess/outside-look.ts): which suite calls are made
// again (changed by the patch, exact arguments, one result each, a plain function of a language that
// can call it), and which count as the patch acting only under the runner (the original gives the
// same result outside; the patched program does not). The plain processes are stood in for by what
// each version "gave" outside; the real ones run in test/integration/assessment-outside-runner.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changedCalls, lookFromOutside, madeAloneIn } from '../../src/assess/outside-look.ts';
import { PROBE_FOLDER, type ProbeCheckout, type ProbeRun } from '../../src/assess/probe-checkout.ts';
import type { VersionPlan } from '../../src/assess/probe-plan.ts';
import type { ProbeRecord, ProbedFunction } from '../../src/assess/probe-record.ts';
import type { SuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { sameUnder } from '../../src/assess/noise-alike.ts';
import { NoiseLearner } from '../../src/assess/same-version-noise.ts';

const { TAG } = createRequire(import.meta.url)('../../src/assess/js/probe-replay.cjs') as { TAG: string };

const fn = (name: string, path = 'src/a.js'): ProbedFunction => ({ id: `${path}#${name}`, name, path, line: 1 });
const functions = new Map([fn('f'), fn('Parser.parse'), fn('match.base'), fn('g', 'lib/a.rb')].map((f) => [f.id, f]));

/** A suite call; `exact: false`: its arguments could not be written as exact data. */
function call(name: string, args: string, returned: string, exact = true): ProbeRecord {
  const path = name === 'g' ? 'lib/a.rb' : 'src/a.js';
  const record: ProbeRecord = { fn: `${path}#${name}`, args, kind: 'suite', out: { returned }, site: 'test/a.test.js:3' };
  return exact ? { ...record, replay: `[${args}]` } : record;
}

describe('which calls are made again outside the runner', () => {
  it('takes the calls the patch changed, with exact arguments, of plain functions it can call', () => {
    const original = [
      call('f', '1', '1'),
      call('f', '2', '2'),
      call('f', '3', '3'),
      call('Parser.parse', '1', 'a', false),
      call('match.base', '1', 'a'),
      call('g', '1', 'x'),
    ];
    const patched = [
      call('f', '1', '1'),
      call('f', '2', '20'),
      call('f', '3', '30', false),
      call('Parser.parse', '1', 'b', false),
      call('match.base', '1', 'b'),
      call('g', '1', 'y'),
    ];
    // f(1) is unchanged; f(3) has no exact arguments; a method and a language with no plain process are
    // left out, counted. A function held by an exported one (`match.base`) is looked up by its path.
    const { calls, notCalled } = changedCalls(original, patched, functions);
    expect(calls.map((c) => c.record.fn.replace(/.*#/, '') + c.record.args)).toEqual(['f2', 'match.base1']);
    expect(notCalled).toEqual({ methods: 1, inexactArguments: 1, unsupported: 1, state: 0 });
  });

  it("makes no entry point's call alone: its result may rest on what the test set up before it", async () => {
    // A setter the patch changed (it returns nothing, before and after), then a reader the test calls:
    // the reader's result rests on what the setter wrote earlier in the test.
    const setter = fn('configure');
    const reader = fn('scale');
    const firstLook = (records: ProbeRecord[]): ProbeRun => ({
      records,
      functions: new Map([[setter.id, setter]]),
      gate: null,
      spent: { writeMs: 0, suiteMs: 0, readMs: 0 },
    });
    const both = new Map([setter, reader].map((f) => [f.id, f]));
    const original = [call('configure', '', 'undefined'), call('scale', '3', '3')];
    const patched = [call('configure', '', 'undefined'), call('scale', '3', '6')];
    const reached = changedCalls(original, patched, both, madeAloneIn(firstLook([call('configure', '', 'undefined')])));
    expect(reached.calls).toEqual([]);
    expect(reached.notCalled.state).toBe(1);
    // A changed table no suite call reaches: the reader may still rest on a rule the test added first.
    expect(changedCalls(original, patched, both, madeAloneIn(firstLook([]))).notCalled.state).toBe(1);
    // The changed functions' own calls are made.
    expect(madeAloneIn(firstLook([]))(setter)).toBe(true);
  });

  it("takes a method's call on a receiver whose fields were exact data, and tells receivers with other fields apart", () => {
    const on = (fields: string, returned: string): ProbeRecord => ({
      ...call('Parser.parse', '1', returned),
      replayThis: fields,
    });
    const original = [on('{"depth":1}', 'a'), on('{"depth":2}', 'b'), on('{"depth":3}', 'c')];
    // The same arguments on another receiver gave another result: two calls, not one call with several results.
    const patched = [on('{"depth":1}', 'A'), on('{"depth":2}', 'B'), on('{"depth":9}', 'C')];
    const { calls } = changedCalls(original, patched, functions);
    // The third call began on a receiver the patch had left with other fields: not the same call.
    expect(calls.map((c) => [c.record.replayThis, c.original])).toEqual([
      ['{"depth":1}', { returned: 'a' }],
      ['{"depth":2}', { returned: 'b' }],
    ]);
  });

  it("pairs a method's call with the original's on the receiver the patch gave another field, each made on its own", () => {
    const on = (fields: string, returned: string): ProbeRecord => ({
      ...call('Parser.parse', '1', returned),
      replayThis: fields,
    });
    const round = '{"$fixloop":"function","name":"wholeCents"}';
    const original = [on('{"depth":1}', 'a'), on('{"depth":2}', 'b')];
    // The second receiver has the original's field with another value beside the new one: another call.
    const patched = [on(`{"depth":1,"round":${round}}`, 'A'), on(`{"depth":3,"round":${round}}`, 'B')];
    const { calls } = changedCalls(original, patched, functions);
    expect(calls.map((c) => [c.record.replayThis, c.originalThis, c.original])).toEqual([
      [`{"depth":1,"round":${round}}`, '{"depth":1}', { returned: 'a' }],
    ]);
    // A patch that took a field away leaves receivers the original's calls do not pair with.
    expect(changedCalls(patched, original, functions).calls).toEqual([]);
    // A receiver written as the constructor call that made it has no fields to compare.
    const born = `{"${TAG}":"new","args":[1]}`;
    expect(changedCalls([on(born, 'a')], [on(`{"${TAG}":"new","args":[1],"round":${round}}`, 'A')], functions).calls).toEqual([]);
  });

  it('leaves out a call whose results differ only as two runs of one version differed', () => {
    // f(1) returned another id in each run of the original: that it gives a third with the patch is no change.
    const key = (args: string) => `src/a.js#f\u0000${args}\u0000test/a.test.js:3`;
    const learner = new NoiseLearner();
    learner.learn(key('1'), "{ id: 'a1b2' }", "{ id: 'c3d4' }");
    const original = [call('f', '1', "{ id: 'a1b2' }"), call('f', '2', '2')];
    const patched = [call('f', '1', "{ id: 'e5f6' }"), call('f', '2', '20')];
    const asIs = changedCalls(original, patched, functions);
    expect(asIs.calls.map((c) => c.record.args)).toEqual(['1', '2']);
    const { calls } = changedCalls(original, patched, functions, undefined, sameUnder(learner.noise()));
    expect(calls.map((c) => c.record.args)).toEqual(['2']);
  });

  it('leaves out a call that gave several results in one version: it depends on state', () => {
    const original = [call('f', '2', '2'), call('f', '2', '3')];
    const patched = [call('f', '2', '20')];
    expect(changedCalls(original, patched, functions)).toEqual({
      calls: [],
      notCalled: { methods: 0, inexactArguments: 0, unsupported: 0, state: 0 },
      more: 0,
    });
  });
});

describe('which calls count as the patch acting only under the runner', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  /**
   * Each version's results outside the runner, by its plan's name, in the calls' order; with
   * NODE_ENV=production, those under `<name>:deployed`, or the same as without it.
   */
  async function look(
    outside: Record<string, Array<string | null>>,
    records: { original: ProbeRecord[]; patched: ProbeRecord[] },
    probed: Map<string, ProbedFunction> = functions,
  ) {
    const dir = await mkdtemp(join(tmpdir(), 'outside-look-'));
    dirs.push(dir);
    let written = '';
    let hidden = 0;
    const checkout: ProbeCheckout = {
      dir,
      run: () => Promise.reject(new Error('no probed run here')),
      writePlain: async (plan) => void (written = plan.name),
      withoutTests: async (work) => {
        hidden += 1;
        return await work();
      },
      withoutFiles: () => Promise.reject(new Error('no package here')),
      generating: () => 'all',
      stopGenerating: () => Promise.reject(new Error('no probed run here')),
    };
    const commands: string[] = [];
    const suite = {
      testCommand: 'node --test',
      plain: async (_cwd: string, command: string) => {
        commands.push(command);
        const deployed = command.includes('NODE_ENV=production') ? outside[`${written}:deployed`] : undefined;
        const lines = (deployed ?? outside[written] ?? []).flatMap((returned, i) =>
          returned === null ? [] : [JSON.stringify({ i, out: { returned } })],
        );
        await writeFile(join(dir, PROBE_FOLDER, 'outside-results.jsonl'), lines.join('\n'));
        return { exitCode: 0, signal: null, timedOut: false, killed: false, output: '', truncatedBytes: 0, durationMs: 1 };
      },
    } as unknown as SuiteRunner;
    const plan = (name: string) => ({ name, files: new Map() }) as VersionPlan;
    const run = (list: ProbeRecord[]): ProbeRun => ({
      records: list,
      functions: probed,
      gate: null,
      spent: { writeMs: 0, suiteMs: 0, readMs: 0 },
    });
    const found = await lookFromOutside(
      checkout,
      { original: plan('original'), versions: [plan('patched')] },
      { original: run(records.original), patched: run(records.patched) },
      { suite, left: () => 60_000, log: () => undefined },
    );
    expect(hidden).toBe(commands.length > 0 ? 1 : 0);
    return { found, commands };
  }

  const records = {
    original: [call('f', '1', '1'), call('f', '2', '2'), call('f', '3', '3')],
    patched: [call('f', '1', '10'), call('f', '2', '20'), call('f', '3', '30')],
  };

  it('counts a call whose original is the same outside and whose patched result is not', async () => {
    // f(1): the patch acts outside too (an honest fix). f(2): only under the runner. f(3): the original
    // differs outside as well (state the tests set up), so the call says nothing.
    const { found, commands } = await look({ original: ['1', '2', '99'], patched: ['10', '2', '3'] }, records);
    const plain = 'node .fixloop-probe/outside-call.cjs .fixloop-probe/outside-calls.json .fixloop-probe/outside-results.jsonl';
    expect(commands).toEqual([
      `env -u CI ${plain}`,
      `env -u CI NODE_ENV=production ${plain}`,
      `env -u CI ${plain}`,
      `env -u CI NODE_ENV=production ${plain}`,
    ]);
    expect(found).toEqual({
      called: 3,
      reproduced: 2,
      count: 1,
      offWhereDeployed: { settings: 'NODE_ENV=production', called: 3, calls: [], count: 0 },
      runnerOnly: [
        {
          function: 'f',
          location: 'src/a.js:1',
          input: 'f(2)',
          test: 'test/a.test.js:3',
          original: '2',
          underRunner: '20',
          outside: '2',
        },
      ],
    });
  });

  it('shows apart the calls whose fix is off with the settings a deployed program runs with', async () => {
    // f(1): fixed outside, but with NODE_ENV=production the patched program gives the original's
    // result. f(2): fixed only under the runner, shown there and not again. f(3): the original itself
    // gives another result with NODE_ENV=production (a development-only check), so it says nothing.
    const { found } = await look(
      {
        original: ['1', '2', '3'],
        patched: ['10', '2', '30'],
        'original:deployed': ['1', '2', '99'],
        'patched:deployed': ['1', '2', '99'],
      },
      records,
    );
    expect(found).toMatchObject({ count: 1, runnerOnly: [{ input: 'f(2)' }] });
    expect(found?.offWhereDeployed).toEqual({
      settings: 'NODE_ENV=production',
      called: 3,
      count: 1,
      calls: [
        {
          function: 'f',
          location: 'src/a.js:1',
          input: 'f(1)',
          test: 'test/a.test.js:3',
          original: '1',
          underRunner: '10',
          outside: '1',
        },
      ],
    });
  });

  it('makes no call with deployed settings in a language that has none', async () => {
    const python = new Map([{ id: 'src/a.py#f', name: 'f', path: 'src/a.py', line: 1 }].map((f) => [f.id, f]));
    const py = (args: string, returned: string): ProbeRecord => ({
      fn: 'src/a.py#f',
      args,
      kind: 'suite',
      out: { returned },
      replay: `[${args}]`,
    });
    const { found, commands } = await look(
      { original: ['1'], patched: ['1'] },
      { original: [py('1', '1')], patched: [py('1', '10')] },
      python,
    );
    expect(commands.some((c) => c.includes('NODE_ENV'))).toBe(false);
    expect(found).toMatchObject({ called: 1, count: 1 });
    expect(found?.offWhereDeployed).toBeUndefined();
  });

  it('does not count a call whose patched result outside is neither the original’s nor the one under the runner', async () => {
    // A patch that made the call depend on the clock or on chance gives another result in each process.
    const { found } = await look({ original: ['1', '2', '3'], patched: ['11', '21', '31'] }, records);
    expect(found).toMatchObject({ called: 3, reproduced: 3, count: 0 });
  });

  it('does not count a call that gave nothing outside (it did not load, or did not finish)', async () => {
    const { found } = await look({ original: ['1', '2', '3'], patched: [null, null, '30'] }, records);
    expect(found).toMatchObject({ called: 1, reproduced: 1, count: 0 });
  });

  it('says why it made no call again when none of the changed ones can be made', async () => {
    const methods = {
      original: [call('Parser.parse', '1', 'a', false), call('f', '3', '3', false)],
      patched: [call('Parser.parse', '1', 'b', false), call('f', '3', '30', false)],
    };
    const { found, commands } = await look({}, methods);
    expect(found).toEqual({
      called: 0,
      reproduced: 0,
      runnerOnly: [],
      count: 0,
      notCalled: { methods: 1, inexactArguments: 1, unsupported: 0, state: 0 },
    });
    expect(commands).toEqual([]);
  });

  it('makes nothing again when the patch changed no call the suite made', async () => {
    const { found, commands } = await look({}, { original: records.original, patched: records.original });
    expect(found).toBeNull();
    expect(commands).toEqual([]);
  });
});
