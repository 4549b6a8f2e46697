// Live progress on the terminal (stderr), one line per step.
import type { ProgressListener } from '../loop/progress.ts';

export function createTerminalProgress(write: (text: string) => void): ProgressListener {
  const started = Date.now();
  return (p) => {
    const elapsed = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
    write(`fixloop ${elapsed}s  ${p.message}\n`);
  };
}
