// The key pipe the guarded processes take their one-use keys from: each key read whole by one
// reader, refilled while the command runs, and after it, exactly the keys taken are known.
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEY_CHUNK, openKeyPipe } from '../../src/runners/guard-key-pipe.ts';
import { guardDirs, removeProjects } from '../support/guarded-run.ts';
import { takeKey } from '../support/key-pipe.ts';

afterAll(() => removeProjects());

/** What a reader that does not play by the rules reads: `bytes` from the pipe, whatever they cut. */
function readRaw(records: string, bytes: number): string {
  const fd = openSync(join(records, 'keys.fifo'), constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.toString('latin1', 0, readSync(fd, buffer, 0, bytes, null));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return ''; // empty for now
    throw error;
  } finally {
    closeSync(fd);
  }
}

describe('the key pipe', () => {
  it('gives each reader its own key, in order, and knows after the command which were taken', () => {
    const { records } = guardDirs();
    const pipe = openKeyPipe(records);
    const first = takeKey(records);
    const second = takeKey(records);
    expect([first.index, second.index]).toEqual([0, 1]);
    expect(first.key).not.toBe(second.key);
    expect(pipe.keys[0]).toBe(first.key);
    expect(pipe.close()).toEqual([0, 1]);
    // Closed once: nothing more is issued or read.
    expect(pipe.close()).toEqual([]);
  });

  it('is topped up while the command runs, past what the pipe holds at once, up to its limit', async () => {
    const { records } = guardDirs();
    // A pipe holds 1,024 keys of 64 bytes at once (64 KiB): 1,100 need a refill.
    const pipe = openKeyPipe(records, 1100);
    const taken: number[] = [];
    for (let waits = 0; taken.length < 1100 && waits < 200;) {
      const chunk = readRaw(records, KEY_CHUNK);
      if (chunk === '') {
        waits++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      } else taken.push(Number(chunk.slice(0, 8)));
    }
    expect(taken).toEqual(Array.from({ length: 1100 }, (_, i) => i));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readRaw(records, KEY_CHUNK)).toBe(''); // none left past the limit: a process finds no key
    expect(pipe.close()).toHaveLength(1100);
  });

  it('counts as taken every key a reader cut short, and every one after it that no longer reads whole', () => {
    const { records } = guardDirs();
    const pipe = openKeyPipe(records, 4);
    expect(readRaw(records, 10)).toMatch(/^00000000/);
    // What follows is out of step: no key reads whole, so all of them count as taken.
    expect(pipe.close()).toEqual([0, 1, 2, 3]);
  });
});
