// The sandbox port: every command fixloop runs on behalf of a repository goes through it.

export interface RunCommandOptions {
  /** A shell command line, run with /bin/sh -c. */
  command: string;
  /** Absolute working directory (inside a workspace). */
  cwd: string;
  timeoutMs: number;
  /** Extra variables on top of the allow-listed environment (never the parent's secrets). */
  env?: Record<string, string>;
  /** Cap on the captured output; the head and tail are kept. */
  maxOutputBytes?: number;
  /** A command that prints more than this in all is killed (default: 64 × maxOutputBytes). */
  killOutputBytes?: number;
  signal?: AbortSignal;
  /** Called with output chunks as they arrive (live progress); already capped text is not re-sent. */
  onOutput?: (chunk: string) => void;
  /**
   * fixloop's own files the command needs besides its working directory (a coverage plugin, an output
   * folder). Isolating backends show only these, the working directory and the system; `process`
   * shows everything anyway.
   */
  mounts?: Mount[];
  /** Network access: only for setup, and only when the app's settings allow it. Off by default. */
  network?: boolean;
}

export interface Mount {
  path: string;
  writable?: boolean;
}

export interface CommandResult {
  /** Null when the process was killed by a signal. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** True when fixloop killed it (timeout or abort). */
  killed: boolean;
  /** stdout and stderr interleaved as they arrived, capped to maxOutputBytes (head + notice + tail). */
  output: string;
  /** Bytes dropped from the middle of the output by the cap; 0 if none. */
  truncatedBytes: number;
  /** Killed for printing more than killOutputBytes. */
  outputExceeded?: boolean;
  durationMs: number;
}

export interface Sandbox {
  /** Name of the isolation backend, shown in reports (e.g. `process`). */
  readonly backend: string;
  run(options: RunCommandOptions): Promise<CommandResult>;
}
