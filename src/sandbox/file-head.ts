// Reads the start of a file only: shims and scripts are told apart by their first line, and the
// programs looked at can be interpreters of a hundred megabytes.
import { closeSync, openSync, readSync } from 'node:fs';

/** The first `bytes` of a file as text, or '' when it cannot be read. */
export function readHead(file: string, bytes: number): string {
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}
