// fixloop's runtime guard for the Node runners (node --test, mocha, jest, vitest; docs/design.md §3.2.7):
// how a judged test command loads it, and how its records are read back. The guard itself is the
// CommonJS preload in node-guard/ (guard-preload.cjs and its parts), loaded through NODE_OPTIONS,
// which reaches the runner through npm, make or a script and every process and worker it starts.
// Each guarded process signs its record with a one-use key it claimed from a pool in the records
// folder before any repository code ran (node-guard/guard-key.cjs); fixloop keeps the keys, and
// requires a valid record for every key that was taken.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GuardEvent, GuardEventKind, GuardRecord } from '../core/guard-record.ts';
import type { RuntimeGuard } from './runner.ts';

/** The folder of the preload, to be shown read-only to the sandbox. */
export const NODE_GUARD_DIR = fileURLToPath(new URL('./node-guard/', import.meta.url));

export interface NodeGuardContext {
  /** The environment the gate gives the command already (config.env): its NODE_OPTIONS are kept. */
  env: Record<string, string>;
  /** The runner's id, written in every record. */
  runner: string;
  /** The checkout where the command runs: a "repository file" is one under it. */
  cwd: string;
  /** The test files the baseline ran (relative to `cwd`), beside the usual test names. */
  tests?: readonly string[];
}

/** The shape of the gate's `RuntimeGuard` (src/runners/runner.ts), kept here until it is on main. */
export interface NodeRuntimeGuard {
  /** `code`: the guard's folder as the command sees it; `records`: a writable folder outside the checkout. */
  ask(
    context: NodeGuardContext,
    dirs: { code: string; records: string },
  ): { env?: Record<string, string>; command?: string } | null;
}

/**
 * Keys in the pool: one per Node process the command may start (npm, the runner, its workers, a CLI
 * a test starts), however many the test files: a process that finds none left is missing evidence.
 */
export function poolSize(testFiles: number): number {
  return Math.min(MAX_KEYS, BASE_KEYS + KEYS_PER_TEST_FILE * testFiles);
}
const BASE_KEYS = 256;
const KEYS_PER_TEST_FILE = 8;
const MAX_KEYS = 4096;

/** The keys handed out, by records folder, until its records are read. */
const issued = new Map<string, string[]>();

/** Writes the pool of keys into the records folder (before the command runs, so synchronously here). */
function issueKeys(records: string, count: number): void {
  mkdirSync(join(records, 'keys'), { recursive: true });
  const keys = Array.from({ length: count }, () => randomBytes(32).toString('hex'));
  keys.forEach((key, i) => writeFileSync(join(records, 'keys', String(i)), key));
  issued.set(records, keys);
}

export const nodeGuard: NodeRuntimeGuard = {
  ask: (context, dirs) => {
    issueKeys(dirs.records, poolSize(context.tests?.length ?? 0));
    const channel = JSON.stringify({ dir: dirs.records, runner: context.runner, root: context.cwd, tests: context.tests ?? [] });
    const preload = `--require ${quoteOption(join(dirs.code, 'guard-preload.cjs'))}`;
    const existing = context.env.NODE_OPTIONS?.trim();
    return { env: { NODE_OPTIONS: existing ? `${existing} ${preload}` : preload, FIXLOOP_GUARD: channel } };
  },
};

/**
 * The guard of one Node runner, as the gate asks it (src/gate/runtime-guard.ts): the preload's files
 * are copied into the gate's code folder (fixloop's own folder is never shown to the sandbox), and
 * the records are read back from the gate's records folder.
 */
export function nodeRuntimeGuard(runner: string): RuntimeGuard {
  return {
    async ask(context, dirs) {
      await cp(NODE_GUARD_DIR, dirs.code, { recursive: true, filter: (source) => !source.endsWith('.ts') });
      return nodeGuard.ask({ env: context.env, runner, cwd: context.root, tests: context.testFiles }, dirs);
    },
    read: (dirs) => readNodeGuardRecords(dirs.records),
  };
}

/** NODE_OPTIONS splits on spaces and reads double quotes with backslash escapes. */
function quoteOption(path: string): string {
  return /[\s"\\]/.test(path) ? `"${path.replace(/[\\"]/g, (c) => `\\${c}`)}"` : path;
}

const KINDS: ReadonlySet<GuardEventKind> = new Set([
  'exit',
  'framework_changed',
  'test_file_read',
  'dynamic_code',
  'report_written',
]);

/**
 * The records the guard wrote in `dir` (whose keys `ask` issued), one per guarded process or worker
 * thread that ran tests or saw an event:
 * - every key a process took must be answered by `record-<key>.json` signed with it, else that
 *   process's record is missing (incomplete: missing evidence);
 * - a process that found no key left wrote `unkeyed-<id>.json`: its events count, its word on its
 *   own tests does not (it is incomplete when it ran tests);
 * - any other file there (a record no key answers for, cut short, another shape) is the guard's
 *   nowhere: an incomplete record whose event says so.
 */
export async function readNodeGuardRecords(dir: string): Promise<GuardRecord[]> {
  const keys = issued.get(dir) ?? [];
  issued.delete(dir);
  const names = new Set((await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')));
  const records: GuardRecord[] = [];
  for (const [i, key] of keys.entries()) {
    const left = await readFile(join(dir, 'keys', String(i)), 'utf8').catch(() => null);
    if (left === key) continue; // no process took it
    const name = `record-${i}.json`;
    names.delete(name);
    const record = signedRecord(await readFile(join(dir, name), 'utf8').catch(() => null), key);
    if (record === null) records.push({ runner: 'unknown', pid: 0, complete: false, tests: null, events: [] });
    else if (record.runs || record.record.events.length > 0) records.push(record.record);
  }
  for (const name of [...names].sort()) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => null);
    const unkeyed = name.startsWith('unkeyed-') ? parsedRecord(text) : null;
    if (!unkeyed) records.push(notTheGuards(name));
    else if (unkeyed.runs) records.push({ ...unkeyed.record, complete: false });
    else if (unkeyed.record.events.length > 0) records.push(unkeyed.record);
  }
  return records;
}

/** The record a file holds when its signature is the key's and its shape the guard's; else null. */
function signedRecord(text: string | null, key: string): { runs: boolean; record: GuardRecord } | null {
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

function parsedRecord(text: string | null): { runs: boolean; record: GuardRecord } | null {
  try {
    const value = JSON.parse(text ?? '') as Partial<GuardRecord> & { runs?: unknown };
    if (
      typeof value.runner === 'string' &&
      typeof value.pid === 'number' &&
      typeof value.complete === 'boolean' &&
      Array.isArray(value.events) &&
      value.events.every(isEvent)
    ) {
      return {
        runs: value.runs === true,
        record: {
          runner: value.runner,
          pid: value.pid,
          complete: value.complete,
          tests: testsOf(value.tests),
          events: value.events,
        },
      };
    }
  } catch {
    // below
  }
  return null;
}

function notTheGuards(name: string): GuardRecord {
  return {
    runner: 'unknown',
    pid: Number.parseInt(name.replace(/^\D+/, ''), 10) || 0,
    complete: false,
    tests: null,
    events: [{ kind: 'report_written', file: null, line: null, detail: `guard record ${name} is not one the guard writes` }],
  };
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

function testsOf(value: unknown): GuardRecord['tests'] {
  const t = value as Record<string, unknown> | null | undefined;
  if (!t || typeof t.passed !== 'number' || typeof t.failed !== 'number' || typeof t.skipped !== 'number') return null;
  return { passed: t.passed, failed: t.failed, skipped: t.skipped };
}
