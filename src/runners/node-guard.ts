// fixloop's runtime guard for the Node runners (node --test, mocha, jest, vitest; DESIGN.md §3.2.7):
// how a judged test command loads it, and how its records are read back. The guard itself is the
// CommonJS preload in node-guard/ (guard-preload.cjs and its parts), loaded through NODE_OPTIONS,
// which reaches the runner through npm, make or a script and every process and worker it starts.
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
  ask(context: NodeGuardContext, dirs: { code: string; records: string }): { env?: Record<string, string>; command?: string } | null;
}

export const nodeGuard: NodeRuntimeGuard = {
  ask: (context, dirs) => {
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

const KINDS: ReadonlySet<GuardEventKind> = new Set(['exit', 'framework_changed', 'test_file_read', 'dynamic_code', 'report_written']);

/**
 * The records the guard wrote in `dir`, one per process or worker thread. A file that is not a
 * record the guard writes (cut short, another shape) is returned as an incomplete record whose event
 * says so: what the guard wrote cannot be told from it.
 */
export async function readNodeGuardRecords(dir: string): Promise<GuardRecord[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => /^\d+(t\d+)?\.json$/.test(n)).sort();
  const records: GuardRecord[] = [];
  for (const name of names) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => null);
    records.push(recordOf(text, name));
  }
  return records;
}

function recordOf(text: string | null, name: string): GuardRecord {
  const pid = Number.parseInt(name, 10);
  try {
    const value = JSON.parse(text ?? '') as Partial<GuardRecord>;
    if (typeof value.runner === 'string' && typeof value.pid === 'number' && typeof value.complete === 'boolean' && Array.isArray(value.events) && value.events.every(isEvent)) {
      return { runner: value.runner, pid: value.pid, complete: value.complete, tests: testsOf(value.tests), events: value.events };
    }
  } catch {
    // below
  }
  return { runner: 'unknown', pid, complete: false, tests: null, events: [{ kind: 'report_written', file: null, line: null, detail: `guard record ${name} is not one the guard writes` }] };
}

function isEvent(value: unknown): value is GuardEvent {
  const e = value as Partial<GuardEvent> | null;
  return !!e && KINDS.has(e.kind as GuardEventKind) && (e.file === null || typeof e.file === 'string') && (e.line === null || typeof e.line === 'number') && typeof e.detail === 'string';
}

function testsOf(value: unknown): GuardRecord['tests'] {
  const t = value as Record<string, unknown> | null | undefined;
  if (!t || typeof t.passed !== 'number' || typeof t.failed !== 'number' || typeof t.skipped !== 'number') return null;
  return { passed: t.passed, failed: t.failed, skipped: t.skipped };
}
