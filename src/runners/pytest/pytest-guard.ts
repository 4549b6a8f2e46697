// pytest's runtime guard (docs/design.md §3.2.7): the Python package in guard/, copied for each judged run
// under a name of its own (a module the repository adds cannot shadow a name it cannot know) and
// loaded with `-p` through PYTEST_ADDOPTS, so that it reaches pytest through make, tox or a script
// and is imported before the entry points and conftest.py. Its record leaves signed with a one-use
// key that the process took from the records folder before any repository code ran (_record.py);
// fixloop keeps the keys and requires a valid, complete record for every key that was taken.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GuardEvent, GuardEventKind, GuardRecord } from '../../core/guard-record.ts';
import type { RuntimeGuard } from '../runner.ts';

const CODE = fileURLToPath(new URL('./guard/', import.meta.url));
/** One key per pytest process the command may start (most start one). */
const KEYS = 8;
const KINDS: ReadonlySet<GuardEventKind> = new Set([
  'exit',
  'framework_changed',
  'test_file_read',
  'dynamic_code',
  'report_written',
]);

/** The keys handed out, by records folder, until they are read. */
const issued = new Map<string, string[]>();

export const pytestGuard: RuntimeGuard = {
  async ask(context, dirs) {
    const name = `fixloop_guard_${randomBytes(6).toString('hex')}`;
    await cp(CODE, join(dirs.code, name), { recursive: true, filter: (source) => !source.includes('__pycache__') });
    await writeFile(join(dirs.records, 'context.json'), JSON.stringify({ root: context.root, testFiles: context.testFiles }));
    await mkdir(join(dirs.records, 'keys'));
    const keys = Array.from({ length: KEYS }, () => randomBytes(32).toString('hex'));
    await Promise.all(keys.map((key, i) => writeFile(join(dirs.records, 'keys', String(i)), key)));
    issued.set(dirs.records, keys);
    return {
      env: {
        FIXLOOP_PYTEST_GUARD: dirs.records,
        PYTHONPATH: joined([dirs.code, context.env.PYTHONPATH], ':'),
        PYTEST_ADDOPTS: joined([context.env.PYTEST_ADDOPTS, `-p ${name}`], ' '),
      },
    };
  },
  async read(dirs) {
    const keys = issued.get(dirs.records) ?? [];
    issued.delete(dirs.records);
    const records: GuardRecord[] = [];
    for (const [i, key] of keys.entries()) {
      const left = await readFile(join(dirs.records, 'keys', String(i)), 'utf8').catch(() => null);
      if (left === key) continue; // not taken: no process used it
      records.push((await signedRecord(join(dirs.records, `record-${i}.json`), key)) ?? missing());
    }
    return records;
  },
};

/** The record in `file` when its signature is the key's and its shape the contract's; else null. */
async function signedRecord(file: string, key: string): Promise<GuardRecord | null> {
  try {
    const { payload, mac } = JSON.parse(await readFile(file, 'utf8')) as { payload?: unknown; mac?: unknown };
    if (typeof payload !== 'string' || typeof mac !== 'string') return null;
    const expected = createHmac('sha256', Buffer.from(key, 'hex')).update(payload, 'utf8').digest();
    const given = Buffer.from(mac, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return recordOf(JSON.parse(payload) as Record<string, unknown>);
  } catch {
    return null;
  }
}

function recordOf(raw: Record<string, unknown>): GuardRecord | null {
  const tests = raw.tests as Record<string, unknown> | null;
  const counts =
    tests && ['passed', 'failed', 'skipped'].every((k) => Number.isInteger(tests[k]) && (tests[k] as number) >= 0)
      ? { passed: tests.passed as number, failed: tests.failed as number, skipped: tests.skipped as number }
      : null;
  if (!Array.isArray(raw.events) || typeof raw.pid !== 'number') return null;
  const events = raw.events.flatMap((e: Record<string, unknown>): GuardEvent[] =>
    KINDS.has(e.kind as GuardEventKind) && typeof e.detail === 'string'
      ? [
          {
            kind: e.kind as GuardEventKind,
            file: typeof e.file === 'string' ? e.file : null,
            line: typeof e.line === 'number' ? e.line : null,
            detail: e.detail,
          },
        ]
      : [],
  );
  return { runner: 'pytest', pid: raw.pid, complete: raw.complete === true && counts !== null, tests: counts, events };
}

/** A key was taken and no valid record answers it: the process ended early, or its record was forged. */
function missing(): GuardRecord {
  return { runner: 'pytest', pid: 0, complete: false, tests: null, events: [] };
}

function joined(parts: Array<string | undefined>, separator: string): string {
  return parts.filter((p) => p !== undefined && p.trim() !== '').join(separator);
}
