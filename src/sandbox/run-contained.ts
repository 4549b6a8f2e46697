// Runs one program as the leader of its own process group with a timeout, an abort signal and capped
// output, and kills the whole group when it ends or is stopped (no daemon survives). Every backend
// runs through here; they differ in the program they start (sh, bwrap, docker) and its environment.
import { spawn } from 'node:child_process';
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

export function runContained(program: ContainedProgram, options: RunCommandOptions): Promise<CommandResult> {
  const started = Date.now();
  const output = new CappedOutput(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT);
  // Live forwarding stops at the same cap, so a flood cannot flood the terminal either.
  let forwarded = 0;
  const forwardCap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  // Past this, reading on only costs time: a command printing gigabytes is stopped.
  const killCap = options.killOutputBytes ?? 64 * forwardCap;
  let total = 0;
  let outputExceeded = false;

  return new Promise<CommandResult>((resolve, reject) => {
    closeInheritedDescriptors();
    // detached: the command leads its own process group, so the whole tree can be signalled at once.
    const child = spawn(program.file, program.args, { cwd: program.cwd, env: program.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let timedOut = false;
    let killed = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let openStreams = 2;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const stop = (why: 'timeout' | 'abort' | 'output') => {
      if (exit || child.pid === undefined) return;
      if (why === 'timeout') timedOut = true;
      if (why === 'output') outputExceeded = true;
      killed = true;
      program.onStop?.();
      killGroup(child.pid, 'SIGTERM');
      timers.push(setTimeout(() => killGroup(child.pid ?? 0, 'SIGKILL'), KILL_GRACE_MS));
    };
    const onAbort = () => stop('abort');

    const settle = () => {
      if (settled || !exit) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode: exit.code,
        signal: exit.signal,
        timedOut,
        killed,
        output: output.text(),
        truncatedBytes: output.droppedBytes,
        ...(outputExceeded ? { outputExceeded } : {}),
        durationMs: Date.now() - started,
      });
    };

    const onData = (data: Buffer) => {
      total += data.length;
      if (total > killCap && !outputExceeded) {
        output.append(`\n[fixloop: the command printed more than ${killCap} bytes and was stopped]\n`);
        stop('output');
      }
      if (outputExceeded) return;
      const text = data.toString('utf8');
      output.append(text);
      if (options.onOutput && forwarded < forwardCap) {
        forwarded += text.length;
        options.onOutput(text);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const onClose = () => {
      openStreams--;
      if (openStreams === 0) settle();
    };
    child.stdout.on('close', onClose);
    child.stderr.on('close', onClose);

    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      reject(new SandboxError('SPAWN_FAILED', `could not start the command: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Whatever the command left running in its group (a daemon, `sleep &`) dies with it.
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
      // A grandchild that escaped the group may still hold the pipes: do not wait for it forever.
      timers.push(
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          settle();
        }, DRAIN_MS),
      );
      if (openStreams === 0) settle();
    });

    timers.push(setTimeout(() => stop('timeout'), options.timeoutMs));
    if (options.signal?.aborted) stop('abort');
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
