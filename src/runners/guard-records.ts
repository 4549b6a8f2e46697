// The signed-record protocol of the runtime guards (docs/design.md §3.2.7), written once for every runner's
// guard. Before the command runs, fixloop opens a pipe of one-use keys in the records folder
// (guard-key-pipe.ts); each guarded process takes one before any repository code runs and signs its
// record, `record-<i>.json`, with it (HMAC-SHA256 of the payload). fixloop keeps the keys it wrote:
// after the command, every key taken must be answered by a record signed with it, in the guard's
// shape, or that process's evidence is missing. What a guard makes of the records (which to keep,
// what else the folder may hold) is its own (node-guard.ts, pytest/pytest-guard.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GuardEvent, GuardEventKind, GuardRecord, GuardTestCase } from '../core/guard-record.ts';
import { openKeyPipe, type KeyPipe } from './guard-key-pipe.ts';

/** A record as the guard wrote it: `runs` says the process ran tests (the Node guard writes it). */
export interface ReadRecord {
  runs: boolean;
  record: GuardRecord;
}

/** A key a process took, and what answers it. */
export interface TakenKey {
  /** The file that answers the key, `record-<i>.json`. */
  file: string;
  /** The record it holds, when signed with the key and in the guard's shape; else null. */
  answer: ReadRecord | null;
}

/** The key pipes open, by records folder, until its records are read. */
const issued = new Map<string, KeyPipe>();

/**
 * Opens the records folder's key pipe (before the command runs: its processes take keys at start),
 * with at most `limit` keys when given (a process that finds none left is missing evidence).
 */
export function issueKeys(records: string, limit?: number): void {
  issued.set(records, openKeyPipe(records, limit));
}

/**
 * The keys a process took from the pipe of `records`, in order, each with the record that answers
 * it. The pipe is closed: a folder's records are read once.
 */
export async function readTakenKeys(records: string): Promise<TakenKey[]> {
  const pipe = issued.get(records);
  issued.delete(records);
  if (!pipe) return [];
  const taken: TakenKey[] = [];
  for (const index of pipe.close()) {
    const file = `record-${index}.json`;
    const text = await readFile(join(records, file), 'utf8').catch(() => null);
    taken.push({ file, answer: signedRecord(text, pipe.keys[index] ?? '') });
  }
  return taken;
}

/** A key was taken and no valid record answers it: the process ended early, or its record was forged. */
export function missingRecord(runner: string): GuardRecord {
  return { runner, pid: 0, complete: false, tests: null, events: [] };
}

/** The record a file holds when its signature is the key's and its shape the guard's; else null. */
function signedRecord(text: string | null, key: string): ReadRecord | null {
  try {
    const { payload, mac } = JSON.parse(text ?? '') as { payload?: unknown; mac?: unknown };
    if (typeof payload !== 'string' || typeof mac !== 'string') return null;
    const expected = createHmac('sha256', Buffer.from(key, 'hex')).update(payload, 'utf8').digest();
    const given = Buffer.from(mac, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return parsedRecord(payload);
  } catch {
    return null;
  }
}

const KINDS: ReadonlySet<GuardEventKind> = new Set([
  'exit',
  'framework_changed',
  'test_file_read',
  'dynamic_code',
  'report_written',
  'internal_binding',
  'loader_hook',
  'native_library',
  'child_unguarded',
  'runner_detected',
]);

/**
 * The record a text holds when it has the guard's shape (every event of a known kind, with its place
 * and words); else null: a record with one event out of shape is not the guard's.
 */
export function parsedRecord(text: string | null): ReadRecord | null {
  try {
    const value = JSON.parse(text ?? '') as Partial<GuardRecord> & { runs?: unknown };
    if (
      typeof value.runner === 'string' &&
      typeof value.pid === 'number' &&
      typeof value.complete === 'boolean' &&
      Array.isArray(value.events) &&
      value.events.every(isEvent) &&
      (value.cases === undefined || (Array.isArray(value.cases) && value.cases.every(isTestCase)))
    ) {
      return {
        runs: value.runs === true,
        record: {
          runner: value.runner,
          pid: value.pid,
          complete: value.complete,
          tests: testsOf(value.tests),
          events: value.events,
          ...(value.cases ? { cases: value.cases } : {}),
        },
      };
    }
  } catch {
    // below
  }
  return null;
}

function isEvent(value: unknown): value is GuardEvent {
  const e = value as Partial<GuardEvent> | null;
  return (
    !!e &&
    KINDS.has(e.kind as GuardEventKind) &&
    (e.file === null || typeof e.file === 'string') &&
    (e.line === null || typeof e.line === 'number') &&
    typeof e.detail === 'string'
  );
}

const OUTCOMES: ReadonlySet<unknown> = new Set(['passed', 'failed', 'skipped']);
const BODIES: ReadonlySet<unknown> = new Set(['returned', 'raised', 'unseen']);

function isTestCase(value: unknown): value is GuardTestCase {
  const c = value as Partial<GuardTestCase> | null;
  return (
    !!c &&
    (c.file === null || typeof c.file === 'string') &&
    Array.isArray(c.titles) &&
    c.titles.length > 0 &&
    c.titles.every((title) => typeof title === 'string') &&
    OUTCOMES.has(c.outcome) &&
    (c.message === undefined || typeof c.message === 'string') &&
    (c.stack === undefined || typeof c.stack === 'string') &&
    (c.body === undefined || BODIES.has(c.body)) &&
    (c.raised === undefined || (typeof c.raised === 'string' && c.body === 'raised'))
  );
}

/** The tests a record saw end, when each count is a whole number; else null (none counted). */
function testsOf(value: unknown): GuardRecord['tests'] {
  const t = value as Record<string, unknown> | null | undefined;
  const count = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0;
  if (!t || !count(t.passed) || !count(t.failed) || !count(t.skipped)) return null;
  return { passed: t.passed, failed: t.failed, skipped: t.skipped };
}
