// The step's log: pino's lines on stderr, as the runner shows them (debug ones with RUNNER_DEBUG=1),
// and the messages fixloop logged at info or above, kept for the step summary: when an event starts
// no run, they say why (the loop guard, an invalid .github/fixloop.yml). Only the fixed messages are
// kept, never their fields.
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import type { CliIo } from '../command-context.ts';

const INFO = 30;

export function stepLog(env: NodeJS.ProcessEnv, io: CliIo): { log: Logger; notes: string[] } {
  const notes: string[] = [];
  const stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      const text = chunk.toString();
      io.stderr(text);
      for (const line of text.split('\n')) {
        const note = messageOf(line);
        if (note && !notes.includes(note)) notes.push(note);
      }
      done();
    },
  });
  return { log: pino({ level: env.RUNNER_DEBUG === '1' ? 'debug' : 'info', base: null }, stream), notes };
}

function messageOf(line: string): string | null {
  if (!line.trim()) return null;
  try {
    const entry = JSON.parse(line) as { level?: unknown; msg?: unknown };
    return typeof entry.level === 'number' && entry.level >= INFO && typeof entry.msg === 'string' ? entry.msg : null;
  } catch {
    return null;
  }
}
