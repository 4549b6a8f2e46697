// Live progress on the terminal (stderr), one line per step.
import type { ProgressListener } from '../loop/progress.ts';

export function createTerminalProgress(write: (text: string) => void): ProgressListener {
  const started = Date.now();
  return (p) => {
    const elapsed = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
    if (p.phase === 'engine') {
      // An engine's own output, indented under its attempt; long lines are cut (the log has them whole).
      for (const line of p.message.split('\n').slice(0, 20)) write(`fixloop ${elapsed}s    │ ${line.length > 200 ? `${line.slice(0, 200)}…` : line}\n`);
      return;
    }
    write(`fixloop ${elapsed}s  ${p.message}\n`);
  };
}
