// SIGINT, SIGTERM and SIGHUP cancel what the command runs (its abort signal): a run stops its
// sandboxed commands, ends as cancelled and keeps its artifacts (src/loop/cancellation.ts). Started
// by an older Node, fixloop runs in a child that bin/fixloop.js hands every signal to, and a Ctrl-C
// reaches both of them, so the same signal comes twice in a moment: the copy is not a second press.
// A second signal after that is someone insisting: fixloop ends at once, as the signal would end it.
import { constants } from 'node:os';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** The hand-over passes a signal on within milliseconds; a person pressing Ctrl-C again takes longer. */
const SAME_PRESS_MS = 1000;

export interface SignalCancel {
  signal: AbortSignal;
  /** The signal that cancelled, once one has. */
  received(): NodeJS.Signals | null;
  /** Lets the default handling (or a command's own handlers) take the signals again. */
  release(): void;
}

/** Exit code of a process ended by `signal`, as a shell reports it: 128 + its number (SIGINT 130, SIGTERM 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

export function cancelOnSignals(): SignalCancel {
  const controller = new AbortController();
  let first: { signal: NodeJS.Signals; at: number } | null = null;
  const handlers = new Map<NodeJS.Signals, () => void>();
  const release = () => {
    for (const [name, handler] of handlers) process.off(name, handler);
    handlers.clear();
  };
  for (const name of SIGNALS) {
    const handler = () => {
      if (!first) {
        first = { signal: name, at: Date.now() };
        controller.abort(new Error(`cancelled by ${name}`));
        return;
      }
      if (name === first.signal && Date.now() - first.at < SAME_PRESS_MS) return;
      release();
      process.kill(process.pid, name);
    };
    handlers.set(name, handler);
    process.on(name, handler);
  }
  return { signal: controller.signal, received: () => first?.signal ?? null, release };
}
