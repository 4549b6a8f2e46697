// A test's stand-in for a guarded process taking its key: one whole chunk read from the records
// folder's key pipe (src/runners/guard-key-pipe.ts), as guard-key.cjs and _record.py read it.
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_CHUNK } from '../../src/runners/guard-key-pipe.ts';

export function takeKey(records: string): { index: number; key: string } {
  const fd = openSync(join(records, 'keys.fifo'), constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const chunk = Buffer.alloc(KEY_CHUNK);
    const read = readSync(fd, chunk, 0, KEY_CHUNK, null);
    const text = chunk.toString('latin1', 0, read);
    if (!/^\d{8}[0-9a-f]{56}$/.test(text)) throw new Error(`not a key chunk: ${text}`);
    return { index: Number(text.slice(0, 8)), key: text.slice(8) };
  } finally {
    closeSync(fd);
  }
}
