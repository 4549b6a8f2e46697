// The screen of rival patches (docs/design.md §3.3): each one-edit candidate at the lines the patch
// changed costs a run of the failing tests under the runner (a jest or ts-jest start is seconds), and
// most candidates change nothing the tests see. The calls the patch changed are made first in a plain
// process on the candidate (outside-process.ts, a fraction of a runner's start); one that gives the
// original's result on every one of them cannot pass the failing tests the patch fixed, and is set
// aside without that run. Why: on a suite that starts slowly the search ran out of time with half its
// candidates untried, which leaves the patch at `review` (assessment-level.ts, `unfinishedReason`).
//
// Set aside only where that holds, so the screen makes no rival disappear that the tests would pass:
// - every suite call whose result the patch changed can be made in the plain process (none left out
//   for its arguments, its receiver or its language, and not more than the look makes); unlike the
//   look from outside, the entry points' calls too: one whose result rests on what the test set up
//   before it (a setter the patch changed) gives outside what it gave under the runner in neither
//   version, so the check below stops the screen there, and nothing here is ever a finding. A call
//   whose results differ only as two runs of one version differed is no changed call (`alike`);
// - at least one of them is a failing test's own call: the fix is seen in what those tests call;
// - in the checkout where the candidate runs, the plain process gives both the original's and the
//   patch's result on each of those calls as the runner saw them (nothing the tests set up decides
//   them), else nothing is set aside there.
// What it does not see is a result the records do not compare: an argument or a field a call writes
// (a closure's variable), where a candidate could pass the failing tests while returning what the
// original returns; the calls' results are compared, as the look from outside compares them.
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { nearKey, type NearFailing } from './compare-records.ts';
import { asTheOriginalMadeIt, changedCalls, notCalledCount, type Changed } from './outside-look.ts';
import { same, type SameCall } from './outside-pairs.ts';
import { plainCalls, type Outcomes, type PlainCall } from './outside-process.ts';
import type { ProbeRecord, ProbedFunction } from './probe-record.ts';

/** Whether a candidate, written in a checkout, can be set aside without running the failing tests. */
export interface RivalScreen {
  /**
   * Whether the candidate gives the original's result on every changed call in checkout `dir`.
   * `versions` runs a piece of work with the original, the patch or the candidate written in `dir`
   * (the original and the patch for the screen's own check of the checkout, once per checkout).
   * `limitMs` bounds the candidate's process as its run of the failing tests would be bounded: an
   * edit that loops forever gives nothing by then, and is kept for its run.
   */
  setsAside(dir: string, candidate: string, versions: ScreenedVersions, limitMs: number): Promise<boolean>;
}

/** Work done with one version written in the checkout, which is put back as it was after. */
export type ScreenedVersions = Record<'original' | 'patched' | 'candidate', (work: () => Promise<Outcomes>) => Promise<Outcomes>>;

/** The probed runs of both versions (the patched one's functions). */
export interface ScreenedRuns {
  original: { records: readonly ProbeRecord[] };
  patched: { records: readonly ProbeRecord[]; functions: ReadonlyMap<string, ProbedFunction> };
  /** Whether a call's two results are one behaviour (noise-alike.ts, `sameUnder`); absent: equal results. */
  alike?: SameCall;
}

/** The screen for this patch's changed calls, or null (with the reason logged) where it could set aside a rival the tests pass. */
export function rivalScreen(
  runs: ScreenedRuns,
  near: Pick<NearFailing, 'keys'>,
  tools: { suite: SuiteRunner; left: () => number; log: (line: string) => void },
): RivalScreen | null {
  const why = (reason: string) => {
    tools.log(`assessment: the one-edit patches are not screened outside the runner: ${reason}`);
    return null;
  };
  const { original, patched } = runs;
  const { calls, notCalled, more } = changedCalls(original.records, patched.records, patched.functions, undefined, runs.alike);
  const left = notCalledCount(notCalled);
  if (left > 0 || more) return why(`${left + more} of the calls the patch changed cannot be made there`);
  if (calls.length === 0) return why('the patch changed no suite call');
  if (!calls.some((c) => near.keys.has(nearKey(c.record))))
    return why("none of the calls the patch changed is a failing test's own");
  const asMade = calls.map(asTheOriginalMadeIt).map(plainCall);
  const checked = new Map<string, Promise<Outcomes | null>>();
  const at = (dir: string, version: string, left = tools.left) => ({ dir, suite: tools.suite, left, log: tools.log, version });
  return {
    async setsAside(dir, candidate, versions, limitMs) {
      let original = checked.get(dir);
      if (!original) checked.set(dir, (original = checkedOriginal(dir, calls, asMade, versions, at, tools.log)));
      const reference = await original;
      if (!reference) return false;
      const end = Date.now() + limitMs;
      const left = () => Math.min(tools.left(), end - Date.now());
      const outcomes = await versions.candidate(() => plainCalls(at(dir, candidate, left), asMade));
      return outcomes.every((out, i) => out !== null && same(out, reference[i]!));
    },
  };
}

/**
 * The original's results in the plain process in `dir`, when both versions give there what they gave
 * under the runner on every changed call (null: a call depends on what the runner or the tests set up).
 */
async function checkedOriginal(
  dir: string,
  calls: readonly Changed[],
  asMade: readonly PlainCall[],
  versions: ScreenedVersions,
  at: (dir: string, version: string) => Parameters<typeof plainCalls>[0],
  log: (line: string) => void,
): Promise<Outcomes | null> {
  const original = await versions.original(() => plainCalls(at(dir, 'original'), asMade));
  const patched = await versions.patched(() => plainCalls(at(dir, 'patched'), calls.map(plainCall)));
  const holds = calls.every((call, i) => {
    const [was, now] = [original[i], patched[i]];
    return was && now && same(was, call.original) && same(now, call.record.out);
  });
  if (!holds)
    log(
      'assessment: the one-edit patches are not screened: outside the runner, the calls the patch changed do not give what they gave under it',
    );
  return holds ? original : null;
}

function plainCall({ fn, record }: Changed): PlainCall {
  return { path: fn.path, name: fn.name, args: record.replay, ...(record.replayThis ? { this: record.replayThis } : {}) };
}
