// A run's id: made by whoever starts a run (the CLI, the library, the forge's fix service), read by every stage.
import { randomBytes } from 'node:crypto';

/** Sortable by time, unique enough for one machine: `m3k9x1a2-9f2c1b`. */
export function newRunId(now = Date.now()): string {
  return `${now.toString(36)}-${randomBytes(3).toString('hex')}`;
}
