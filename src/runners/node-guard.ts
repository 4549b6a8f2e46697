// fixloop's runtime guard for the Node runners (node --test, mocha, jest, vitest; docs/design.md §3.2.7):
// how a judged test command loads it, and how its records are read back. The guard itself is the
// CommonJS preload in node-guard/ (guard-preload.cjs and its parts), loaded through NODE_OPTIONS,
// which reaches the runner through npm, make or a script and every process and worker it starts.
// Each guarded process signs its record with a one-use key it took from the records folder's key
// pipe before any repository code ran (node-guard/guard-key.cjs); fixloop keeps the keys, and
// requires a valid record for every key that was taken (the protocol: src/runners/guard-records.ts).
import { cp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GuardRecord, GuardTestCase } from '../core/guard-record.ts';
import type { TestCaseResult } from '../core/test-report.ts';
import { issueKeys, missingRecord, parsedRecord, readTakenKeys } from './guard-records.ts';
import type { RuntimeGuard } from './runner.ts';

/** The folder of the preload, copied into the gate's code folder for each guarded command. */
const NODE_GUARD_DIR = fileURLToPath(new URL('./node-guard/', import.meta.url));

/**
 * The preload's part that follows each runner's tests (node-guard/test-events/): the repair engine's
 * spectra hook requires it where it is, and shows this folder to the sandbox beside its own.
 */
export const TEST_EVENTS_DIR = join(NODE_GUARD_DIR, 'test-events');

/**
 * The guard of one Node runner, as the gate asks it (src/gate/runtime-guard.ts): the preload's files
 * are copied into the gate's code folder (fixloop's own folder is never shown to the sandbox), the
 * key pipe is opened in the records folder, and NODE_OPTIONS gains the preload (after what the
 * gate's environment gives it already); the records are read back from the records folder. Each
 * test they name becomes the test the runner's own output parser names (`testCase`, the runner's own).
 */
export function nodeRuntimeGuard(runner: string, testCase: (recorded: GuardTestCase) => TestCaseResult): RuntimeGuard {
  return {
    async ask(context, dirs) {
      await cp(NODE_GUARD_DIR, dirs.code, { recursive: true, filter: (source) => !source.endsWith('.ts') });
      issueKeys(dirs.records);
      const preload = `--require ${quoteOption(join(dirs.code, 'guard-preload.cjs'))}`;
      const existing = context.env.NODE_OPTIONS?.trim();
      const env = { NODE_OPTIONS: existing ? `${existing} ${preload}` : preload };
      const channel = JSON.stringify({
        dir: dirs.records,
        runner,
        root: context.root,
        tests: context.testFiles,
        exempt: context.exemptFiles ?? null,
        variables: context.runnerVariables,
        // What the command is given is the operator's setting, not the runner's sign (guard-environment.cjs).
        given: Object.keys({ ...context.env, ...env }),
      });
      return { env: { ...env, FIXLOOP_GUARD: channel } };
    },
    read: (dirs) => readNodeGuardRecords(dirs.records),
    testCase,
  };
}

/** NODE_OPTIONS splits on spaces and reads double quotes with backslash escapes. */
function quoteOption(path: string): string {
  return /[\s"\\]/.test(path) ? `"${path.replace(/[\\"]/g, (c) => `\\${c}`)}"` : path;
}

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
async function readNodeGuardRecords(dir: string): Promise<GuardRecord[]> {
  const names = new Set((await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')));
  const records: GuardRecord[] = [];
  for (const { file, answer } of await readTakenKeys(dir)) {
    names.delete(file);
    if (answer === null) records.push(missingRecord('unknown'));
    else if (answer.runs || answer.record.events.length > 0) records.push(answer.record);
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

function notTheGuards(name: string): GuardRecord {
  return {
    runner: 'unknown',
    pid: Number.parseInt(name.replace(/^\D+/, ''), 10) || 0,
    complete: false,
    tests: null,
    events: [{ kind: 'report_written', file: null, line: null, detail: `guard record ${name} is not one the guard writes` }],
  };
}
