// What every subcommand's registration gets from `main`: where to write, the run's abort signal,
// and how to set the process's exit code.
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export interface CommandContext {
  io: CliIo;
  /** Aborted on SIGINT, SIGTERM or SIGHUP (cancel-signals.ts; the long-running servers install their own handlers instead). */
  signal: AbortSignal;
  setExitCode: (code: number) => void;
  /** Stops `main` from turning SIGINT / SIGTERM into an abort: for commands that handle them. */
  releaseSignals: () => void;
}
