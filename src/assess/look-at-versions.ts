// What two versions recorded, compared (docs/design.md §3.3): the original's records against the
// patched one's, with what differed between two runs of one version masked or left out
// (same-version-noise.ts), the failing tests' calls told apart, and whether the patch changed
// behaviour only at the failing tests' own inputs (special-case.ts).
import {
  compareVersions,
  indexRecords,
  nearFailingOf,
  type Differences,
  type NearFailing,
  type RecordIndex,
} from './compare-records.ts';
import type { SpecialCase } from '../core/assessment.ts';
import { NO_CHANGE_VALUES, type ChangeValues } from './change-values.ts';
import { learnNoise } from './learn-noise.ts';
import type { ProbeRecord, ProbedFunction } from './probe-record.ts';
import { NoiseLearner, type Noise } from './same-version-noise.ts';
import { specialCaseOf } from './special-case.ts';
import type { VersionRuns } from './version-runs.ts';

export interface Looked {
  functions: Map<string, ProbedFunction>;
  /** The patched version's records, indexed (the alternatives are compared with them). */
  after: RecordIndex;
  differences: Differences;
  near: NearFailing;
  noise: Noise;
  specialCase?: SpecialCase;
}

/** Null when either version did not run or neither recorded a call. */
export function lookAt(
  runs: VersionRuns,
  fromFailing: (record: ProbeRecord) => boolean,
  values: ChangeValues = NO_CHANGE_VALUES,
): Looked | null {
  if (!runs.patched || !runs.original || (runs.patched.records.length === 0 && runs.original.records.length === 0)) return null;
  const functions = new Map([...runs.original.functions, ...runs.patched.functions]);
  const before = indexRecords(runs.original.records);
  const after = indexRecords(runs.patched.records);
  const learner = new NoiseLearner();
  if (runs.originalAgain) learnNoise(before, indexRecords(runs.originalAgain.records), learner);
  if (runs.patchedAgain) learnNoise(after, indexRecords(runs.patchedAgain.records), learner);
  const noise = learner.noise();
  const near = runs.failing ? nearFailingOf(runs.failing.records) : nearFailingOf(runs.original.records, fromFailing);
  const differences = compareVersions(before, after, functions, near, noise);
  const specialCase = specialCaseOf(before, after, near, noise, values);
  return { functions, after, differences, near, noise, ...(specialCase ? { specialCase } : {}) };
}
