// Runs one program as the leader of its own process group with a timeout, an abort signal and capped
// output, and kills the whole group when it ends or is stopped (no daemon survives). Every backend
// runs through here; they differ in the program they start (sh, bwrap, docker) and its environment.
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { CappedOutput } from './capped-output.ts';
import { closeInheritedDescriptors } from './inherited-descriptors.ts';
import { SandboxError } from './sandbox-error.ts';
import type { CommandResult, RunCommandOptions } from './sandbox.ts';

const DEFAULT_MAX_OUTPUT = 2 * 1024 * 1024;
/** Time between SIGTERM and SIGKILL when fixloop stops a command. */
const KILL_GRACE_MS = 2000;
/** How long to wait for the pipes to close once the command has exited. */
const DRAIN_MS = 1000;

export interface ContainedProgram {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Extra clean-up when fixloop stops the command (e.g. `docker kill`, which the client cannot do). */
  onStop?: () => void;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** What has happened to one command so far, shared by its stop, output and exit handlers. */
interface RunState {
  timedOut: boolean;
  killed: boolean;
  outputExceeded: boolean;
  exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  openStreams: number;
  settled: boolean;
  timers: NodeJS.Timeout[];
}

type StopReason = 'timeout' | 'abort' | 'output';
type Child = ChildProcessByStdio<null, Readable, Readable>;

export function runContained(program: ContainedProgram, options: RunCommandOptions): Promise<CommandResult> {
  const started = Date.now();
  const output = new CappedOutput(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT);
  const state: RunState = {
    timedOut: false,
    killed: false,
    outputExceeded: false,
    exit: null,
    openStreams: 2,
    settled: false,
    timers: [],
  };

  return new Promise<CommandResult>((resolve, reject) => {
    closeInheritedDescriptors();
    // detached: the command leads its own process group, so the whole tree can be signalled at once.
    const child = spawn(program.file, program.args, {
      cwd: program.cwd,
      env: program.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stop = (why: StopReason) => stopCommand(child, program, state, why);
    const onAbort = () => stop('abort');

    const settle = () => {
      if (state.settled || !state.exit) return;
      state.settled = true;
      for (const t of state.timers) clearTimeout(t);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(commandResult(state, state.exit, output, started));
    };

    const onData = outputReader(output, options, state, stop);
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const onClose = () => {
      state.openStreams--;
      if (state.openStreams === 0) settle();
    };
    child.stdout.on('close', onClose);
    child.stderr.on('close', onClose);

    child.on('error', (error) => {
      if (state.settled) return;
      state.settled = true;
      for (const t of state.timers) clearTimeout(t);
      reject(new SandboxError('SPAWN_FAILED', `could not start the command: ${error.message}`));
    });
    child.on('exit', (code, signal) => onExit(child, state, { code, signal }, settle));

    state.timers.push(setTimeout(() => stop('timeout'), options.timeoutMs));
    if (options.signal?.aborted) stop('abort');
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Stops a command still running: SIGTERM to its group, SIGKILL after the grace period. */
function stopCommand(child: ChildProcess, program: ContainedProgram, state: RunState, why: StopReason): void {
  if (state.exit || child.pid === undefined) return;
  if (why === 'timeout') state.timedOut = true;
  if (why === 'output') state.outputExceeded = true;
  state.killed = true;
  program.onStop?.();
  killGroup(child.pid, 'SIGTERM');
  state.timers.push(setTimeout(() => killGroup(child.pid ?? 0, 'SIGKILL'), KILL_GRACE_MS));
}

/** Reads the command's stdout and stderr into `output`, forwards them live, and stops a flood. */
function outputReader(
  output: CappedOutput,
  options: RunCommandOptions,
  state: RunState,
  stop: (why: StopReason) => void,
): (data: Buffer) => void {
  // Live forwarding stops at the same cap, so a flood cannot flood the terminal either.
  let forwarded = 0;
  const forwardCap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  // Past this, reading on only costs time: a command printing gigabytes is stopped.
  const killCap = options.killOutputBytes ?? 64 * forwardCap;
  let total = 0;
  return (data: Buffer) => {
    total += data.length;
    if (total > killCap && !state.outputExceeded) {
      output.append(`\n[fixloop: the command printed more than ${killCap} bytes and was stopped]\n`);
      stop('output');
    }
    if (state.outputExceeded) return;
    const text = data.toString('utf8');
    output.append(text);
    if (options.onOutput && forwarded < forwardCap) {
      forwarded += text.length;
      options.onOutput(text);
    }
  };
}

/** The command has exited: its group goes with it, and the result waits for the pipes a little only. */
function onExit(child: Child, state: RunState, exit: NonNullable<RunState['exit']>, settle: () => void): void {
  state.exit = exit;
  // Whatever the command left running in its group (a daemon, `sleep &`) dies with it.
  if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
  // A grandchild that escaped the group may still hold the pipes: do not wait for it forever.
  state.timers.push(
    setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
      settle();
    }, DRAIN_MS),
  );
  if (state.openStreams === 0) settle();
}

function commandResult(
  state: RunState,
  exit: NonNullable<RunState['exit']>,
  output: CappedOutput,
  started: number,
): CommandResult {
  return {
    exitCode: exit.code,
    signal: exit.signal,
    timedOut: state.timedOut,
    killed: state.killed,
    output: output.text(),
    truncatedBytes: output.droppedBytes,
    ...(state.outputExceeded ? { outputExceeded: true } : {}),
    durationMs: Date.now() - started,
  };
}
