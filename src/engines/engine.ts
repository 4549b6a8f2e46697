// The engine port (DESIGN.md §2): what proposes edits. Engines never run the authoritative gate.
import type { GateResult } from '../gate/gate-result.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { Workspace } from '../workspace/workspace.ts';
import type { RepoConfig } from '../config/schema.ts';

export interface Cost {
  usd: number;
  tokens: number;
}

export interface PreviousAttempt {
  attempt: number;
  engine: string;
  summary: string;
  gatePassed: boolean;
  failed: number;
  fingerprint: string | null;
}

/** Lines known to be involved in the failure, e.g. a failing pull request's own diff. */
export interface LocalizationHint {
  file: string;
  lines: number[];
}

export interface AttemptContext {
  attempt: number;
  maxAttempts: number;
  workspace: Workspace;
  sandbox: Sandbox;
  config: RepoConfig;
  goal: string;
  instructions?: string;
  /** The gate of the state this attempt starts from (its failing tests are the target). */
  lastGate: GateResult;
  baseline: GateResult;
  previousAttempts: PreviousAttempt[];
  hints: LocalizationHint[];
  signal: AbortSignal;
  /** Epoch milliseconds by which the engine must have returned. */
  deadline: number;
  /** Lines for the attempt's log and the live progress. */
  log: (line: string) => void;
}

export interface EngineOutcome {
  summary: string;
  cost: Cost;
  /** The engine has nothing more to try from this state (the cascade moves on). */
  gaveUp: boolean;
  /** Engine-specific counters for the report and the benchmark (e.g. candidates, testExecutions). */
  stats?: Record<string, number>;
}

export interface Engine {
  readonly name: string;
  attempt(context: AttemptContext): Promise<EngineOutcome>;
}

export const ZERO_COST: Cost = Object.freeze({ usd: 0, tokens: 0 });
