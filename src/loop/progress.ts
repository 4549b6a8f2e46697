// Progress events for the terminal and the GitHub status comment.
export interface RunProgress {
  phase: 'clone' | 'setup' | 'baseline' | 'attempt' | 'verify' | 'done';
  attempt?: number;
  maxAttempts?: number;
  /** Failing tests after the phase, when known. */
  failing?: number;
  message: string;
}

export type ProgressListener = (progress: RunProgress) => void;
