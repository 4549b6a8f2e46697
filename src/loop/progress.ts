// Progress events for the terminal and the GitHub status comment. `engine` events are the lines an
// engine logs while it works (an agent's output): streamed, never kept as run events.
export interface RunProgress {
  phase: 'clone' | 'setup' | 'baseline' | 'write-test' | 'attempt' | 'engine' | 'verify' | 'assess' | 'done';
  attempt?: number;
  maxAttempts?: number;
  /** Failing tests after the phase, when known. */
  failing?: number;
  message: string;
  /** A reminder that a long phase is still running (shown live, not kept as a run event). */
  heartbeat?: boolean;
}

export type ProgressListener = (progress: RunProgress) => void;
