// Whether a suite call changed between the versions, once what two runs of one version taught is
// applied (docs/design.md §3.3, "Only real differences"): for the screen of rival patches and the look
// from outside the runner, which take the calls the patch changed (outside-look.ts, `changedCalls`).
import { outcomeText, suiteKey } from './compare-records.ts';
import { sameResult, type SameCall } from './outside-pairs.ts';
import type { Noise } from './same-version-noise.ts';

/**
 * A suite call's results alike once what runs of one version taught is applied (`noise`): a call
 * whose results differ between runs of one version by what varies there (the process's environment,
 * an id, a time) did not change, and one that varies past any rule cannot be said to have.
 */
export function sameUnder(noise: Noise): SameCall {
  return (was, now) => {
    const key = suiteKey(now);
    return sameResult(was, now) || noise.unstable.has(key) || noise.same(key, outcomeText(was), outcomeText(now));
  };
}
