// Live progress on stderr, one line per step. The repair engine's candidate count ("candidate 37/300,
// 1 plausible") is one line rewritten in place on a terminal; written to a file or a pipe, where a
// line cannot be taken back, it is one line every 30 s at most. When the report follows on the same
// terminal, the closing line (the run's headline) is left to it: said once.
import type { ProgressListener, RunProgress } from '../loop/progress.ts';

export interface TerminalProgressOptions {
  /** stderr is a terminal: a line can be rewritten in place. */
  tty?: boolean;
  /** The report follows on a terminal and opens with the headline the `done` event carries. */
  reportFollows?: boolean;
}

/** Where not on a terminal, a candidate count is written at most this often. */
export const COUNT_EVERY_MS = 30_000;
/** Back to the line's start and erase it: the in-place line is redrawn or cleared. */
const ERASE_LINE = '\r\x1b[K';

export function createTerminalProgress(write: (text: string) => void, options: TerminalProgressOptions = {}): ProgressListener {
  const started = Date.now();
  /** The in-place count is on screen, without its newline. */
  let countShown = false;
  let lastCountAt = Number.NEGATIVE_INFINITY;
  const prefix = () => `fixloop ${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s`;
  const line = (text: string) => {
    if (countShown) write(ERASE_LINE);
    countShown = false;
    write(text);
  };
  const count = (p: RunProgress) => {
    if (options.tty) {
      write(`${ERASE_LINE}${prefix()}    │ ${p.message}`);
      countShown = true;
    } else if (Date.now() - lastCountAt >= COUNT_EVERY_MS) {
      lastCountAt = Date.now();
      write(`${prefix()}    │ ${p.message}\n`);
    }
  };
  return (p) => {
    if (p.candidates) return count(p);
    if (p.phase === 'done' && options.reportFollows) return line('');
    if (p.phase === 'engine') {
      // An engine's own output, indented under its attempt; long lines are cut (the log has them whole).
      line(
        p.message
          .split('\n')
          .slice(0, 20)
          .map((l) => `${prefix()}    │ ${l.length > 200 ? `${l.slice(0, 200)}…` : l}\n`)
          .join(''),
      );
      return;
    }
    line(`${prefix()}  ${p.message}\n`);
  };
}
