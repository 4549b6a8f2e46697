// Where the guarded processes take their one-use keys (docs/design.md §3.2.7): a named pipe in the
// records folder, `keys.fifo`, that fixloop keeps filled while the command runs. Each key is one
// 64-byte chunk, `<index: 8 digits><key: 56 hex digits>`, written whole (a pipe write of at most
// PIPE_BUF bytes is never split) and read whole by one process: a key read is gone, and no process
// can see a key another will take. Code under test that reads the pipe itself only takes keys of
// its own, each of which must then be answered by a record signed with it. After the command,
// fixloop reads back what is left: every key written and not left was taken.
//
// A pool of key files (the design before this one) let a process copy keys a later process would
// claim, and cost a write per key before every command; the pipe costs one `mkfifo`.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Bytes of one key in the pipe: its index (8 digits) and the key (28 bytes as hex). */
export const KEY_CHUNK = 64;
/** The most keys one command may take: beyond it a process finds none (missing evidence). */
const MAX_KEYS = 65_536;
/** How often the pipe is topped up while the command runs. */
const REFILL_MS = 10;
/** Keys' bytes drawn from the system's randomness at once: one call per key cost ~0.5 s of a run's CPU. */
const RANDOM_KEYS = 1024;
const KEY_BYTES = 28;

export interface KeyPipe {
  /** The keys written, by index (hex). */
  readonly keys: string[];
  /** Stops filling, and gives the indices of the keys a process took, in order. */
  close(): number[];
}

/**
 * Creates `keys.fifo` in the records folder and fills it, up to `limit` keys in all; the keys are
 * kept in memory only.
 */
export function openKeyPipe(records: string, limit = MAX_KEYS): KeyPipe {
  const path = join(records, 'keys.fifo');
  execFileSync('mkfifo', [path]);
  // Read and write: opening a pipe to write only would wait for a reader; this end never blocks.
  const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
  const keys: string[] = [];
  const nextKey = randomKeys();
  const refill = () => {
    while (keys.length < limit) {
      const key = nextKey.peek();
      const chunk = Buffer.from(`${String(keys.length).padStart(8, '0')}${key}`, 'latin1');
      try {
        writeSync(fd, chunk);
      } catch {
        return; // full (EAGAIN): topped up again on the next tick, with the same key
      }
      nextKey.take();
      keys.push(key);
    }
  };
  refill();
  const timer = setInterval(() => (existsSync(path) ? refill() : clearInterval(timer)), REFILL_MS);
  timer.unref();
  let closed = false;
  return {
    keys,
    close() {
      if (closed) return [];
      closed = true;
      clearInterval(timer);
      const left = unreadIndices(fd);
      closeSync(fd);
      return keys.map((_, index) => index).filter((index) => !left.has(index));
    },
  };
}

/** Keys as hex, from randomness drawn RANDOM_KEYS keys at a time: `peek` the next, `take` it once written. */
function randomKeys(): { peek(): string; take(): void } {
  let pool = randomBytes(KEY_BYTES * RANDOM_KEYS);
  let at = 0;
  return {
    peek: () => pool.toString('hex', at, at + KEY_BYTES),
    take() {
      at += KEY_BYTES;
      if (at === pool.length) {
        pool = randomBytes(KEY_BYTES * RANDOM_KEYS);
        at = 0;
      }
    },
  };
}

/** The indices of the whole chunks still in the pipe (a chunk cut short by a reader is no key). */
function unreadIndices(fd: number): Set<number> {
  const left = new Set<number>();
  const chunk = Buffer.alloc(KEY_CHUNK);
  for (;;) {
    let read: number;
    try {
      read = readSync(fd, chunk, 0, KEY_CHUNK, null);
    } catch {
      return left; // empty (EAGAIN)
    }
    if (read === 0) return left;
    const text = chunk.toString('latin1', 0, read);
    if (read === KEY_CHUNK && /^\d{8}[0-9a-f]{56}$/.test(text)) left.add(Number(text.slice(0, 8)));
  }
}
