// The versions run and compared, and run again for their noise only when it could matter
// (docs/design.md §3.3, "Only real differences").
import type { TestCaseResult } from '../core/test-report.ts';
import { lookAt, type Looked } from './look-at-versions.ts';
import type { ProbeCheckout } from './probe-checkout.ts';
import type { VersionPlan } from './probe-plan.ts';
import type { ProbeRecord } from './probe-record.ts';
import { runAgain, runVersions, type VersionRuns } from './version-runs.ts';

/**
 * The versions run and compared; run again, for the noise between two runs of one version, only
 * when there is something noise could explain: a change outside the failing tests, a special case, an
 * engine's alternative to compare. Masking noise only takes changes away, so without one the look
 * stands as it is, and the runs that would have learned the noise (two suite runs) are saved.
 */
export async function runAndLook(
  checkout: ProbeCheckout,
  plans: { original: VersionPlan; versions: VersionPlan[] },
  at: {
    input: { fixed: TestCaseResult[]; log: (line: string) => void };
    focused: string[];
    left: () => number;
    fromFailing: (record: ProbeRecord) => boolean;
  },
): Promise<{ runs: VersionRuns; looked: Looked | null }> {
  const runs = await runVersions(checkout, plans, at.input, at.focused, at.left);
  const looked = lookAt(runs, at.fromFailing, checkout.values);
  if (!looked || !(looked.differences.changes.some((c) => !c.nearFailing) || looked.specialCase || runs.alternatives.length > 0))
    return { runs, looked };
  await runAgain(checkout, plans, runs, at.input, at.left);
  return { runs, looked: lookAt(runs, at.fromFailing, checkout.values) };
}

/**
 * The look again, the versions run again for their noise first, once (a rival's disagreement may be
 * noise alone); null when they already ran again.
 */
export async function lookWithNoise(
  checkout: ProbeCheckout,
  plans: { original: VersionPlan; versions: VersionPlan[] },
  runs: VersionRuns,
  at: { input: { log: (line: string) => void }; left: () => number; fromFailing: (record: ProbeRecord) => boolean },
): Promise<Looked | null> {
  if (runs.againRun) return null;
  await runAgain(checkout, plans, runs, at.input, at.left);
  return lookAt(runs, at.fromFailing, checkout.values);
}
