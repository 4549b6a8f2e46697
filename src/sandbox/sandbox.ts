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
  /**
   * The command is the first process of its PID namespace (bwrap's `--as-pid-1`), where the sandbox's
   * own reaper would be, named for it: a user's program never sees a sandbox as PID 1, and the look from
   * outside the runner runs it as a user would. For fixloop's own short commands only (no reaper: an
   * orphan of theirs stays a zombie until the command ends).
   */
  ownInit?: boolean;
  /**
   * A host folder (made by fixloop) the command sees as its /tmp (its TMPDIR), kept between the
   * commands given the same one: what a runner caches there (jest's transforms, its module map)
   * serves the next run. Default: a private, empty /tmp for each command.
   */
  tmpDir?: string;
}

export interface Mount {
  path: string;
  writable?: boolean;
  /**
   * An empty writable folder over `path` (which must exist), gone when the command ends: a tool's
   * cache inside a tree shown read-only. Isolating backends only; `process` leaves the folder as is.
   */
  scratch?: boolean;
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
  /**
   * What the sandbox shows and passes of the operator's machine to these commands (a run's setup and
   * test commands): the toolchains and the package settings. Absent on sandboxes made without them.
   */
  describe?(commands?: string[]): SandboxDescription;
}

/** One program the commands name, as the server's PATH resolves it, and what was shown for it. */
export interface ToolchainSummary {
  /** As commands name it: `python3`. */
  name: string;
  /** Where the PATH finds it: `/root/.pyenv/shims/python3`. */
  executable: string;
  /** The file that finally runs: `/root/.pyenv/versions/3.11.7/bin/python3.11`. */
  realPath: string;
  /** Its real prefix: `/root/.pyenv/versions/3.11.7`, a virtualenv, `/usr`. */
  prefix: string;
  kind: 'system' | 'pyenv' | 'virtualenv' | 'nvm' | 'prefix';
  /** Host folders shown read-only for it: none for the system's own, or where nothing is hidden (`process`). */
  bound: string[];
  /** Folders it needs that were not shown, and why (a home folder, credentials, fixloop's own files). */
  refused: Array<{ path: string; reason: string }>;
}

export interface SandboxDescription {
  backend: string;
  toolchains: ToolchainSummary[];
  packageSettings: {
    /** npm keys written to the generated npmrc (`registry`, `cafile`, …; named credentials included). */
    npmKeys: string[];
    /** pip keys written to the generated pip.conf. */
    pipKeys: string[];
    /** Variables passed from the server's environment (`NODE_EXTRA_CA_CERTS`, `HTTPS_PROXY`, …). */
    passedVariables: string[];
    /** Credentials left out (`//host/:_authToken`, `pip:index-url`, `env:HTTPS_PROXY`). */
    dropped: string[];
    /** Host files and folders shown read-only for them (the generated folder, CA files). */
    shown: string[];
    refused: Array<{ path: string; reason: string }>;
  };
}
