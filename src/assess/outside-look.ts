// The look from outside the runner (docs/design.md §3.3): every other look runs under the test runner,
// beside the tests, so a patch that detects the runner (its variables, its globals, its files, its
// process) or reads the tests, and acts only then, passes them all. The suite's calls that the patch
// changed are made again in a plain process of the same interpreter, with no runner loaded, no runner
// variable and no test on its command line, on each version as it would ship (nothing instrumented,
// the test files and the git folder moved out of the checkout), with the arguments they had (exact
// data only: ProbeRecord.replay). A call counts when the original gives the same result there as
// under the runner (so the call can be made alone: no state the tests set up decides it) and the
// patched program gives the original's result there too: the fix exists only under the runner, beside
// the tests, and a reviewer must see that call.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OutsideLook, RunnerOnlyCall, StaleBuild } from '../core/assessment.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { PROBE_FOLDER, type ProbeCheckout, type ProbeRun } from './probe-checkout.ts';
import type { OutsideCalls } from './probe-language.ts';
import { probeLanguageOf } from './probe-languages.ts';
import type { VersionPlan } from './probe-plan.ts';
import type { ProbeRecord, ProbedFunction } from './probe-record.ts';
import { resultText } from './compare-records.ts';
import { SuiteCalls, same } from './outside-pairs.ts';
import { unshippedFiles } from './unshipped-files.ts';
import { copyKey } from './built-copies.ts';

/** Calls made again at most: the look is one short process per version and language. */
const MAX_CALLS = 40;
/** Each process's time, within what is left of the assessment's. */
const PROCESS_MS = 30_000;
/** Runner-only calls kept for the report (`count` has them all). */
const SHOWN = 5;
/**
 * The plain process runs without the variable the sandbox sets for the test runners to say "this is
 * a CI run" (sandbox/environment.ts): a program as its users run it has none, and a fix made only
 * where it is set is a fix made only for the tests. The variables that keep the runners' output
 * plain stay: a call whose result depends on them gives the original another result outside, and
 * is not counted (lookFromOutside), where a fix to colour handling would be refused for nothing.
 */
const AS_A_USER_RUNS_IT = 'env -u CI';
const CALLS_FILE = 'outside-calls.json';
const RESULTS_FILE = 'outside-results.jsonl';

type Out = ProbeRecord['out'];

/** A suite call the patch changed under the runner (the patched version's record), to be made again outside it. */
interface Changed {
  fn: ProbedFunction;
  record: ProbeRecord;
  original: Out;
  /** The receiver's fields as the original's call had them: the patched one's, or fewer (outside-pairs.ts). */
  originalThis?: string;
}

/** What each version's plain process gave, by call: the result, or null when it gave none. */
type Outcomes = Array<Out | null>;

/**
 * The look, or null when the patch changed no call the suite made (the probes saw no change there),
 * or there is no time for it. A look that could make none of the changed calls again says why, by
 * count (`notCalled`).
 */
export async function lookFromOutside(
  checkout: ProbeCheckout,
  plans: { original: VersionPlan; versions: VersionPlan[] },
  runs: { original: ProbeRun | null; patched: ProbeRun | null },
  tools: { suite: SuiteRunner; left: () => number; log: (line: string) => void },
): Promise<OutsideLook | null> {
  const patchedPlan = plans.versions[0];
  if (!runs.original || !runs.patched || !patchedPlan || tools.left() < 2000) return null;
  const { calls: changed, notCalled } = changedCalls(runs.original.records, runs.patched.records, runs.patched.functions);
  const notAll = notCalled.methods + notCalled.inexactArguments + notCalled.unsupported > 0 ? { notCalled } : {};
  if (changed.length === 0) return notAll.notCalled ? { called: 0, reproduced: 0, runnerOnly: [], count: 0, ...notAll } : null;
  tools.log(`assessment: ${changed.length} changed call(s) made again outside the test runner`);
  const at = { checkout, ...tools, original: plans.original };
  const looked = await checkout.withoutTests(async () => ({
    original: await outcomesOf(at, plans.original, changed.map(asTheOriginalMadeIt)),
    patched: await outcomesOf(at, patchedPlan, changed),
  }));
  const { outcomes: original } = looked.original;
  const { outcomes: patched, staleBuilds, builtCopies } = looked.patched;
  let called = 0;
  let reproduced = 0;
  const runnerOnly: RunnerOnlyCall[] = [];
  for (const [i, call] of changed.entries()) {
    const before = original[i];
    const after = patched[i];
    if (!before || !after) continue;
    called += 1;
    if (!same(before, call.original)) continue;
    reproduced += 1;
    // Outside, the patched program gives the original's result: the fix is not there. A third result
    // (neither) is passed over: a patch that made the call depend on the clock or on chance gives
    // another one in each process, and that is not the runner detected.
    if (same(after, before)) runnerOnly.push(runnerOnlyCall(call, after, builtCopies.get(copyKey(call.fn))));
  }
  return {
    called,
    reproduced,
    runnerOnly: runnerOnly.slice(0, SHOWN),
    count: runnerOnly.length,
    ...notAll,
    ...(staleBuilds.length > 0 ? { staleBuilds } : {}),
  };
}

/**
 * The suite calls whose one result under the runner differs between the versions, by function and
 * arguments, that a plain process can make (a plain function's, with exact arguments, of a language
 * that has one), at most MAX_CALLS; and how many of the others could not be made, and why. A call
 * that gave several results in one version depends on state, and is left out.
 */
export function changedCalls(
  original: readonly ProbeRecord[],
  patched: readonly ProbeRecord[],
  functions: ReadonlyMap<string, ProbedFunction>,
): { calls: Changed[]; notCalled: NonNullable<OutsideLook['notCalled']> } {
  const before = new SuiteCalls(original);
  const calls: Changed[] = [];
  const notCalled = { methods: 0, inexactArguments: 0, unsupported: 0 };
  for (const [, after] of new SuiteCalls(patched).entries()) {
    const was = after ? before.pairOf(after) : null;
    if (!after || !was || same(was.out, after.out)) continue;
    const fn = functions.get(after.fn);
    // Paired, the receivers are the same, or the patched one has the original's fields and more
    // (outside-pairs.ts): each version's call is made outside on its own receiver.
    const exact = after.replay !== undefined && was.replay === after.replay;
    // A dotted name with exact arguments and no receiver is a function held by an exported one
    // (`picomatch.matchBase`, a static method): the plain process looks it up by that path. A method
    // called on an instance is made on an object of its class with the instance's fields
    // (`replayThis`); one whose fields are not all exact data records no replay.
    if (!fn || !outsideOf(fn.path)) notCalled.unsupported += 1;
    else if (!exact && fn.name.includes('.')) notCalled.methods += 1;
    else if (!exact) notCalled.inexactArguments += 1;
    else if (calls.length < MAX_CALLS)
      calls.push({ fn, record: after, original: was.out, ...(was.replayThis ? { originalThis: was.replayThis } : {}) });
  }
  return { calls, notCalled };
}

/** The call as the original made it: on the receiver it had, which may lack a field the patch added. */
function asTheOriginalMadeIt(call: Changed): Changed {
  if (call.originalThis === undefined || call.originalThis === call.record.replayThis) return call;
  return { ...call, record: { ...call.record, replayThis: call.originalThis } };
}

function outsideOf(path: string): OutsideCalls | null {
  return probeLanguageOf(path)?.outside ?? null;
}

/** One version written as it ships, its calls made by each language's plain process. */
type At = {
  checkout: ProbeCheckout;
  suite: SuiteRunner;
  left: () => number;
  log: (line: string) => void;
  /** The original version: its changed functions' texts, which a shipped copy of them keeps (stale-builds.ts). */
  original: VersionPlan;
};

/** What one version's plain process gave, and the shipped build files that keep its changed functions as they were. */
async function outcomesOf(
  at: At,
  plan: VersionPlan,
  changed: readonly Changed[],
): Promise<{ outcomes: Outcomes; staleBuilds: StaleBuild[]; builtCopies: Map<string, string> }> {
  await at.checkout.writePlain(plan);
  const folder = join(at.checkout.dir, PROBE_FOLDER);
  await mkdir(folder, { recursive: true });
  const ships = { dir: at.checkout.dir, suite: at.suite, left: at.left, log: (line: string) => at.log(`${line} (${plan.name})`) };
  const functions = changed.map(({ fn }) => ({
    name: fn.name,
    path: fn.path,
    original: at.original.files.get(fn.path)?.text ?? null,
  }));
  const unshipped = await unshippedFiles(ships, functions, new Set(plan.files.keys()));
  const outcomes =
    unshipped.paths.length === 0
      ? await callsOf(at, plan, changed, unshipped.builtCopies)
      : await at.checkout.withoutFiles(unshipped.paths, () => callsOf(at, plan, changed, unshipped.builtCopies));
  for (const path of unshipped.builtFiles) await rm(join(at.checkout.dir, path), { force: true });
  return { outcomes, staleBuilds: unshipped.staleBuilds, builtCopies: unshipped.builtCopies };
}

/** Each call made by its language's plain process in the checkout as it is. */
async function callsOf(
  at: At,
  plan: VersionPlan,
  changed: readonly Changed[],
  builtCopies: ReadonlyMap<string, string>,
): Promise<Outcomes> {
  const folder = join(at.checkout.dir, PROBE_FOLDER);
  const outcomes: Outcomes = changed.map(() => null);
  const languages = new Map<OutsideCalls, number[]>();
  for (const [i, call] of changed.entries()) {
    const outside = outsideOf(call.fn.path);
    if (outside) languages.set(outside, [...(languages.get(outside) ?? []), i]);
  }
  for (const [outside, indexes] of languages) {
    if (at.left() < 1000) break;
    for (const { from, name } of outside.files) await copyFile(from, join(folder, name));
    const calls = indexes.map((i) => {
      const { fn, record } = changed[i]!;
      // The package's build, run just now, holds the copy users get: the call is made there.
      const path = builtCopies.get(copyKey(fn)) ?? fn.path;
      return { path, name: fn.name, args: record.replay, ...(record.replayThis ? { this: record.replayThis } : {}) };
    });
    await writeFile(join(folder, CALLS_FILE), JSON.stringify(calls));
    await rm(join(folder, RESULTS_FILE), { force: true });
    const command = `${AS_A_USER_RUNS_IT} ${outside.command({
      testCommand: at.suite.testCommand,
      folder: PROBE_FOLDER,
      calls: CALLS_FILE,
      results: RESULTS_FILE,
    })}`;
    const result = await at.suite.plain(at.checkout.dir, command, Math.min(PROCESS_MS, at.left()));
    if (result.exitCode !== 0)
      at.log(
        `assessment: the look from outside the runner ended ${result.timedOut ? 'at its time limit' : `with exit ${result.exitCode ?? result.signal}`}`,
      );
    const { results, missing } = await resultsOf(join(folder, RESULTS_FILE), indexes.length);
    for (const [j, out] of results.entries()) outcomes[indexes[j]!] = out;
    // Why a call gave nothing (a file plain node cannot load, a name no export has), once: the log says what the look did not reach.
    if (missing) at.log(`assessment: outside the runner, ${plan.name}: ${missing.slice(0, 300)}`);
  }
  return outcomes;
}

/**
 * Each call's result as the records write it (`{"returned":"…"}`), by its place in the calls file;
 * and the first reason a call gave none, as the process wrote it.
 */
async function resultsOf(file: string, count: number): Promise<{ results: Outcomes; missing: string | null }> {
  const results: Outcomes = Array.from({ length: count }, () => null);
  let missing: string | null = null;
  const text = await readFile(file, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    try {
      const { i, out, missing: why } = JSON.parse(line) as { i?: unknown; out?: unknown; missing?: unknown };
      if (typeof i !== 'number' || i < 0 || i >= count) continue;
      if (isOut(out)) results[i] = out;
      else if (typeof why === 'string') missing ??= why;
    } catch {
      // A line the process left half written when it was stopped: that call gave nothing.
    }
  }
  return { results, missing };
}

function isOut(value: unknown): value is Out {
  if (typeof value !== 'object' || value === null) return false;
  const given = value as { returned?: unknown; threw?: unknown };
  return typeof given.returned === 'string' || typeof given.threw === 'string';
}

function runnerOnlyCall(call: Changed, outside: Out, builtIn: string | undefined): RunnerOnlyCall {
  const site = call.record.site ?? call.record.testLines?.[0];
  return {
    function: call.fn.name,
    location: `${call.fn.path}:${call.fn.line}`,
    input: `${call.fn.name}(${call.record.args})`,
    ...(site ? { test: site } : {}),
    original: resultText(call.original),
    underRunner: resultText(call.record.out),
    outside: resultText(outside),
    ...(builtIn ? { built: builtIn } : {}),
  };
}
