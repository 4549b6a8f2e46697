// A long-running child's output (stdout and stderr together, as it comes) and a wait for a line in
// it: the readiness signal itself (`Listening on`, `worker started`), not a guess at how long start-up
// takes. The wait is as long as a loaded 2-core machine may need, and ends at once, with the output,
// when the child exits before saying it.
import type { ChildProcess } from 'node:child_process';

export interface ChildOutput {
  text(): string;
  /** Resolves when the output matches `what`; rejects when the child exits first or `ms` pass. */
  until(what: RegExp | string, ms?: number): Promise<void>;
}

/** Start-up of `fixloop serve` or `worker` beside a busy suite took over 10 s: the wait allows far more. */
export const START_WAIT_MS = 45_000;

export function watchOutput(child: ChildProcess): ChildOutput {
  let output = '';
  let exit: string | null = null;
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const w of wakers) w();
  };
  const add = (d: Buffer) => {
    output += d.toString();
    wake();
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  child.on('exit', (code, signal) => {
    exit = signal ?? `exit ${code}`;
    wake();
  });
  const matches = (what: RegExp | string) => (typeof what === 'string' ? output.includes(what) : what.test(output));
  return {
    text: () => output,
    until(what, ms = START_WAIT_MS) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (matches(what)) done(() => resolve());
          else if (exit !== null)
            done(() =>
              reject(new Error(`the child ended (${exit}) before its output showed ${String(what)}:\n${output.slice(-3000)}`)),
            );
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`no ${String(what)} in the child's output after ${ms} ms:\n${output.slice(-3000)}`))),
          ms,
        );
        const done = (settle: () => void) => {
          clearTimeout(timer);
          wakers.delete(check);
          settle();
        };
        wakers.add(check);
        check();
      });
    },
  };
}
