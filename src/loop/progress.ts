// Progress events for the terminal and the GitHub status comment. `engine` events are the lines an
// engine logs while it works (an agent's output) and the count of its candidates: streamed, never
// kept as run events.
import type { CandidateCount } from '../core/candidate-count.ts';

export interface RunProgress {
  phase: 'clone' | 'setup' | 'baseline' | 'write-test' | 'attempt' | 'engine' | 'verify' | 'assess' | 'done';
  attempt?: number;
  maxAttempts?: number;
  /** Failing tests after the phase, when known. */
  failing?: number;
  message: string;
  /** A reminder that a long phase is still running (shown live, not kept as a run event). */
  heartbeat?: boolean;
  /**
   * An `engine` event that counts candidates as they are validated: a terminal rewrites one line in
   * place with it (src/cli/terminal-progress.ts); elsewhere it is shown at most every 30 s.
   */
  candidates?: CandidateCount;
}

/** "candidate 37/300, 1 plausible": the message of a candidate count. */
export function candidateWords(count: CandidateCount): string {
  return `repair: candidate ${count.validated}/${count.total}, ${count.plausible} plausible`;
}

export type ProgressListener = (progress: RunProgress) => void;
