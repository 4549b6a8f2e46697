// The noise of one version (same-version-noise.ts), learnt from two of its runs: their records paired
// call by call exactly as the two versions are paired (compare-records.ts, paired-calls.ts).
import type { RecordIndex } from './compare-records.ts';
import { pairedChanges } from './paired-calls.ts';
import { NoiseLearner } from './same-version-noise.ts';

/**
 * What two runs of the same version gave differently, call by call as the versions are compared
 * (same-version-noise.ts): each pair of results taught to `learner`.
 */
export function learnNoise(first: RecordIndex, second: RecordIndex, learner: NoiseLearner = new NoiseLearner()): NoiseLearner {
  for (const [key, a] of first.suite) {
    const b = second.suite.get(key);
    if (!b) continue;
    if (a.outs.length === b.outs.length) a.outs.forEach((out, k) => learner.learn(key, out, b.outs[k] ?? ''));
    // Another number of calls with other results: nothing pairs them, the call is unstable.
    else if (pairedChanges(a.outs, b.outs, (x, y) => x === y).length > 0) learner.drop(key);
  }
  for (const [key, a] of first.generated) {
    const b = second.generated.get(key);
    if (b) learner.learn(key, a.out, b.out);
  }
  return learner;
}
