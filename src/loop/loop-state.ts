// What the fix loop is given, and what it knows between attempts: shared by the loop's policy
// (fix-loop.ts) and its attempts (fix-attempt.ts).
import type { Cost } from '../core/cost.ts';
import type { FileChange } from '../core/file-change.ts';
import type { Finding } from '../core/findings.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { Reviewer } from '../core/reviewer.ts';
import type { AttemptRecord, Verification } from '../core/run-result.ts';
import type { Engine, PreviousAttempt } from '../engines/engine.ts';
import type { Snapshot, Workspace } from '../workspace/workspace.ts';
import type { AttemptLog } from './attempt-log.ts';
import type { AttemptShared } from './attempt-runner.ts';

export interface FixLoopInput extends AttemptShared {
  /** The workspace under the fix's path policy. */
  workspace: Workspace;
  engines: Engine[];
  baseline: GateResult;
  /** Constraint findings for the attempt's changes; any finding rejects the attempt. */
  checkChanges: (changes: FileChange[]) => Promise<Finding[]>;
  /** Runs the authoritative gate in the workspace. */
  runGate: (log: AttemptLog) => Promise<GateResult>;
  /** Replays the patch on a pristine checkout and checks it. */
  verify: (patch: string, log: AttemptLog) => Promise<Verification>;
  /** Directories whose paths vary between runs, blanked out of fingerprints. */
  volatileRoots: string[];
  /** Reads a verified green attempt; only its `ok` makes the run green. */
  reviewer?: Reviewer | null;
  /** Number of the first attempt (attempts of an earlier phase count against the same maximum). */
  firstAttempt?: number;
  /** Attempts of an earlier phase, shown to the engines. */
  previousAttempts?: PreviousAttempt[];
}

export interface BestState {
  snapshot: Snapshot;
  failing: number;
  gate: GateResult;
}

/** What the loop knows between attempts. */
export interface LoopState {
  attempts: AttemptRecord[];
  previous: PreviousAttempt[];
  remainingTasks: string[];
  cost: Cost;
  best: BestState;
  currentGate: GateResult;
  engineIndex: number;
  consecutiveFailures: number;
  /** The last attempt left more failing tests than the baseline: the next starts from the best state. */
  lastBrokeMore: boolean;
  /** Fingerprints seen per engine: a repeat means that engine is stuck. */
  seenFingerprints: Map<string, number>;
  lastVerification: Verification | null;
}
