// The look from outside the runner (docs/design.md §3.3): every other look runs under the test runner,
// beside the tests, so a patch that detects the runner (its variables, its globals, its files, its
// process) or reads the tests, and acts only then, passes them all. The suite's calls that the patch
// changed are made again in a plain process of the same interpreter, with no runner loaded, no runner
// variable and no test on its command line, on each version as it would ship (nothing instrumented,
// the test files and the git folder moved out of the checkout, a package called where its package
// manager installs it: installed-copy.ts), with the arguments they had (exact
// data only: ProbeRecord.replay). A call counts when the original gives the same result there as
// under the runner (so the call can be made alone: no state the tests set up decides it) and the
// patched program gives the original's result there too: the fix exists only under the runner, beside
// the tests, and a reviewer must see that call. The original's agreement proves nothing where the
// test set up state the call reads and left the original as it was (a setter that now writes another
// value, a rule the test adds): so only the changed functions' own calls are made, never those of
// the entry points probed beside them (`madeAloneIn`). The calls are made once more with the settings
// the language's programs are deployed with (`NODE_ENV=production`): a fix off there is one the
// tests and development see and users do not, which a reviewer must see too (`offWhereDeployed`;
// not a refusal, since a fix to a development-only check is off there by design).
import { mkdir, rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { OutsideLook, RunnerOnlyCall, StaleBuild } from '../core/assessment.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { PROBE_FOLDER, type ProbeCheckout, type ProbeRun } from './probe-checkout.ts';
import type { VersionPlan } from './probe-plan.ts';
import type { ProbeRecord, ProbedFunction } from './probe-record.ts';
import { resultText } from './compare-records.ts';
import { SuiteCalls, same, sameResult, type SameCall } from './outside-pairs.ts';
import { unshippedFiles } from './unshipped-files.ts';
import { withInstalledCopy } from './installed-copy.ts';
import type { InstalledAt } from './probe-language.ts';
import { copyKey } from './built-copies.ts';
import { outsideOf, plainCalls, type Out, type Outcomes } from './outside-process.ts';

/** Calls made again at most: the look is one short process per version and language. */
const MAX_CALLS = 40;
/** Runner-only calls kept for the report (`count` has them all). */
const SHOWN = 5;

/** A suite call the patch changed under the runner (the patched version's record), to be made again outside it. */
export interface Changed {
  fn: ProbedFunction;
  record: ProbeRecord;
  original: Out;
  /** The receiver's fields as the original's call had them: the patched one's, or fewer (outside-pairs.ts). */
  originalThis?: string;
}

/**
 * The look, or null when the patch changed no call the suite made (the probes saw no change there),
 * or there is no time for it. A look that could make none of the changed calls again says why, by
 * count (`notCalled`).
 */
export async function lookFromOutside(
  checkout: ProbeCheckout,
  plans: { original: VersionPlan; versions: VersionPlan[] },
  runs: { original: ProbeRun | null; patched: ProbeRun | null; alone?: MadeAlone; alike?: SameCall },
  tools: { suite: SuiteRunner; left: () => number; log: (line: string) => void },
): Promise<OutsideLook | null> {
  const patchedPlan = plans.versions[0];
  if (!runs.original || !runs.patched || !patchedPlan || tools.left() < 2000) return null;
  const { calls: changed, notCalled } = changedCalls(
    runs.original.records,
    runs.patched.records,
    runs.patched.functions,
    runs.alone,
    runs.alike,
  );
  const notAll = notCalledCount(notCalled) > 0 ? { notCalled } : {};
  if (changed.length === 0) return notAll.notCalled ? { called: 0, reproduced: 0, runnerOnly: [], count: 0, ...notAll } : null;
  tools.log(`assessment: ${changed.length} changed call(s) made again outside the test runner`);
  const at = { checkout, ...tools, original: plans.original, listing: { failed: null } };
  const looked = await checkout.withoutTests(async () => ({
    original: await outcomesOf(at, plans.original, changed.map(asTheOriginalMadeIt)),
    patched: await outcomesOf(at, patchedPlan, changed),
  }));
  const { outcomes: original, deployed: originalDeployed } = looked.original;
  const { outcomes: patched, deployed: patchedDeployed, staleBuilds, builtCopies } = looked.patched;
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
  const offWhereDeployed = offWhere(changed, { original: originalDeployed, patched: patchedDeployed }, runnerOnly, builtCopies);
  return {
    called,
    reproduced,
    runnerOnly: runnerOnly.slice(0, SHOWN),
    count: runnerOnly.length,
    ...notAll,
    ...(staleBuilds.length > 0 ? { staleBuilds } : {}),
    ...(offWhereDeployed ? { offWhereDeployed } : {}),
  };
}

/**
 * The changed calls on which the fix is off with the deployed settings: there the original gives
 * what it gave under the runner (so the settings do not decide the call for it) and the patched
 * program gives the original's result. Calls already fixed only under the runner are not repeated.
 * Null when no call was made with those settings.
 */
function offWhere(
  changed: readonly Changed[],
  deployed: { original: Outcomes; patched: Outcomes },
  runnerOnly: readonly RunnerOnlyCall[],
  builtCopies: ReadonlyMap<string, string>,
): OutsideLook['offWhereDeployed'] | null {
  const shown = new Set(runnerOnly.map((call) => call.input));
  const calls: RunnerOnlyCall[] = [];
  const settings = new Set<string>();
  let made = 0;
  for (const [i, call] of changed.entries()) {
    const before = deployed.original[i];
    const after = deployed.patched[i];
    if (!before || !after) continue;
    made += 1;
    const language = outsideOf(call.fn.path)?.deployedSettings ?? {};
    for (const [name, value] of Object.entries(language)) settings.add(`${name}=${value}`);
    if (!same(before, call.original) || !same(after, before)) continue;
    const row = runnerOnlyCall(call, after, builtCopies.get(copyKey(call.fn)));
    if (!shown.has(row.input)) calls.push(row);
  }
  if (made === 0) return null;
  return { settings: [...settings].join(' '), called: made, calls: calls.slice(0, SHOWN), count: calls.length };
}

/** Whether a probed function's calls can be made alone, in a plain process (`madeAloneIn`). */
export type MadeAlone = (fn: ProbedFunction) => boolean;

/**
 * Which functions' calls can be made alone: those the patch changed (`changed`, the first look's
 * patched run), not the entry points probed beside them. An entry point's result may rest on what
 * the test set up before the call, through a changed function (a setter) or any other (a rule added,
 * a registry filled), which a call made alone does not repeat: the original agreeing there proves
 * nothing where the test's setup left the original as it was.
 */
export function madeAloneIn(changed: ProbeRun | null): MadeAlone {
  return (fn) => changed?.functions.has(fn.id) ?? true;
}

/** How many changed calls were not made outside, whatever the reason. */
export function notCalledCount(notCalled: NonNullable<OutsideLook['notCalled']>): number {
  return notCalled.methods + notCalled.inexactArguments + notCalled.unsupported + (notCalled.state ?? 0);
}

/**
 * The suite calls whose one result under the runner differs between the versions (unless `alike`
 * says the two are one behaviour), by function and arguments, that a plain process can make (a
 * plain function's, with exact arguments, of a language that has one, that `alone` accepts), at
 * most MAX_CALLS (`more`: how many beyond it); and how many of the others could not be made, and
 * why. A call that gave several results in one version depends on state, and is left out.
 */
export function changedCalls(
  original: readonly ProbeRecord[],
  patched: readonly ProbeRecord[],
  functions: ReadonlyMap<string, ProbedFunction>,
  alone: MadeAlone = () => true,
  alike: SameCall = sameResult,
): { calls: Changed[]; notCalled: NonNullable<OutsideLook['notCalled']>; more: number } {
  const before = new SuiteCalls(original);
  const calls: Changed[] = [];
  const notCalled: Required<NonNullable<OutsideLook['notCalled']>> = {
    methods: 0,
    inexactArguments: 0,
    unsupported: 0,
    state: 0,
  };
  let more = 0;
  for (const [, after] of new SuiteCalls(patched).entries()) {
    const was = after ? before.pairOf(after) : null;
    if (!after || !was || alike(was, after)) continue;
    const fn = functions.get(after.fn);
    // Paired, the receivers are the same, or the patched one has the original's fields and more
    // (outside-pairs.ts): each version's call is made outside on its own receiver.
    const exact = after.replay !== undefined && was.replay === after.replay;
    // A dotted name with exact arguments and no receiver is a function held by an exported one
    // (`picomatch.matchBase`, a static method): the plain process looks it up by that path. A method
    // called on an instance is made on an object of its class with the instance's fields
    // (`replayThis`); one whose fields are not all exact data records no replay.
    if (!fn || !outsideOf(fn.path)) notCalled.unsupported += 1;
    else if (!alone(fn)) notCalled.state += 1;
    else if (!exact && fn.name.includes('.')) notCalled.methods += 1;
    else if (!exact) notCalled.inexactArguments += 1;
    else if (calls.length < MAX_CALLS)
      calls.push({ fn, record: after, original: was.out, ...(was.replayThis ? { originalThis: was.replayThis } : {}) });
    else more += 1;
  }
  return { calls, notCalled, more };
}

/** The call as the original made it: on the receiver it had, which may lack a field the patch added. */
export function asTheOriginalMadeIt(call: Changed): Changed {
  if (call.originalThis === undefined || call.originalThis === call.record.replayThis) return call;
  return { ...call, record: { ...call.record, replayThis: call.originalThis } };
}

/** One version written as it ships, its calls made by each language's plain process. */
type At = {
  checkout: ProbeCheckout;
  suite: SuiteRunner;
  left: () => number;
  log: (line: string) => void;
  /** The original version: its changed functions' texts, which a shipped copy of them keeps (stale-builds.ts). */
  original: VersionPlan;
  /** Why the packaging tool could not list the original's files, for the other versions (unshipped-files.ts). */
  listing: { failed: string | null };
};

/** What one version's plain process gave, and the shipped build files that keep its changed functions as they were. */
async function outcomesOf(
  at: At,
  plan: VersionPlan,
  changed: readonly Changed[],
): Promise<{ outcomes: Outcomes; deployed: Outcomes; staleBuilds: StaleBuild[]; builtCopies: Map<string, string> }> {
  await at.checkout.writePlain(plan);
  const folder = join(at.checkout.dir, PROBE_FOLDER);
  await mkdir(folder, { recursive: true });
  const log = (line: string) => at.log(`${line} (${plan.name})`);
  const ships = { dir: at.checkout.dir, suite: at.suite, left: at.left, log, listing: at.listing };
  const functions = changed.map(({ fn }) => ({
    name: fn.name,
    path: fn.path,
    original: at.original.files.get(fn.path)?.text ?? null,
  }));
  const unshipped = await unshippedFiles(ships, functions, new Set(plan.files.keys()));
  // Where a user's install puts the program (installed-copy.ts): once as a user runs it there, once
  // more with the settings a deployed program has (NODE_ENV=production).
  const both = () =>
    withInstalledCopy(at.checkout.dir, installedAtOf(changed), async (prefix) => ({
      outcomes: await callsOf(at, plan, changed, unshipped.builtCopies, { deployed: false, prefix }),
      deployed: await callsOf(at, plan, changed, unshipped.builtCopies, { deployed: true, prefix }),
    }));
  const made = unshipped.paths.length === 0 ? await both() : await at.checkout.withoutFiles(unshipped.paths, both);
  for (const path of unshipped.builtFiles) await rm(join(at.checkout.dir, path), { force: true });
  return { ...made, staleBuilds: unshipped.staleBuilds, builtCopies: unshipped.builtCopies };
}

/**
 * Each call made by its language's plain process in the checkout as it is, or in its installed copy
 * (`prefix`, relative to the checkout; '' for none).
 */
function callsOf(
  at: At,
  plan: VersionPlan,
  changed: readonly Changed[],
  builtCopies: ReadonlyMap<string, string>,
  { deployed, prefix }: { deployed: boolean; prefix: string },
): Promise<Outcomes> {
  return plainCalls(
    { dir: at.checkout.dir, suite: at.suite, left: at.left, log: at.log, version: plan.name, deployed },
    changed.map(({ fn, record }) => ({
      // The package's build, run just now, holds the copy users get: the call is made there.
      path: posix.join(prefix, builtCopies.get(copyKey(fn)) ?? fn.path),
      name: fn.name,
      args: record.replay,
      ...(record.replayThis ? { this: record.replayThis } : {}),
    })),
  );
}

/** The place a user's install puts the program, when every changed call is of one language that has one. */
function installedAtOf(changed: readonly Changed[]): InstalledAt | undefined {
  const places = new Set(changed.map(({ fn }) => outsideOf(fn.path)?.installedAt));
  return places.size === 1 ? [...places][0] : undefined;
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
