// A tiny project in a temp folder, run by a real test runner (node --test, mocha, jest, vitest from
// fixloop's own node_modules), with and without the Node runtime guard, and the guard's records.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { GuardRecord } from '../../src/core/guard-record.ts';
import type { GuardDirs, RuntimeGuard } from '../../src/runners/runner.ts';
import { RUNNER_VARIABLE_SOURCES, RUNNERS } from '../../src/runners/registry.ts';

const MODULES = resolve('node_modules');
const NODE = join(MODULES, 'node', 'bin', 'node');
const made: string[] = [];

export interface GuardedRun {
  /** The runner's exit code. */
  code: number | null;
  output: string;
  records: GuardRecord[];
}

/** Writes the project (its node_modules are fixloop's), returning its folder. */
export function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'fixloop-guard-project-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  symlinkSync(MODULES, join(root, 'node_modules'));
  return root;
}

/**
 * Runs `args` (a program in node_modules/.bin, or `node`) in `root`, guarded or not; `exemptFiles`:
 * the configuration and setup files a judge would list (absent: none listed, every file so named).
 */
export async function runIn(
  root: string,
  runner: string,
  args: string[],
  guarded: boolean,
  exemptFiles?: readonly string[],
  testFiles: readonly string[] = [],
): Promise<GuardedRun> {
  const dirs = guardDirs();
  const base = { PATH: `${join(MODULES, '.bin')}:${dirname(NODE)}:${process.env.PATH ?? ''}`, HOME: root, CI: '1' };
  const guard = guardOf(runner);
  const context = {
    command: args.join(' '),
    env: base,
    packageScripts: {},
    root,
    testFiles,
    ...(exemptFiles ? { exemptFiles } : {}),
    runnerVariables: RUNNER_VARIABLE_SOURCES,
  };
  const asked = guarded ? await guard.ask(context, dirs) : null;
  const env = { ...base, ...asked?.env };
  const [program, ...rest] = args;
  const child = spawn(program === 'node' ? NODE : join(MODULES, '.bin', program ?? ''), rest, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
  return { code, output, records: await guard.read(dirs) };
}

/** The runtime guard of a runner of the registry (`node-test`, `mocha`, `jest`, `vitest`). */
export function guardOf(runner: string): RuntimeGuard {
  const guard = RUNNERS.find((r) => r.id === runner)?.guard;
  if (!guard) throw new Error(`no runtime guard for ${runner}`);
  return guard;
}

/** The folders the gate gives a guard (src/gate/runtime-guard.ts): its code's and its records'. */
export function guardDirs(): GuardDirs {
  const dir = mkdtempSync(join(tmpdir(), 'fixloop-guard-'));
  made.push(dir);
  const dirs = { code: join(dir, 'code'), records: join(dir, 'records') };
  for (const folder of Object.values(dirs)) mkdirSync(folder);
  return dirs;
}

/** Every event of the run's records, as `kind file:line detail`. */
export function eventsOf(run: GuardedRun): string[] {
  return run.records.flatMap((r) => r.events.map((e) => `${e.kind} ${e.file ?? '?'}:${e.line ?? '?'} ${e.detail}`));
}

/** The tests the records saw end, summed over the processes. */
export function testsOf(run: GuardedRun): { passed: number; failed: number; skipped: number } {
  const sum = { passed: 0, failed: 0, skipped: 0 };
  for (const r of run.records) {
    if (!r.tests) continue;
    sum.passed += r.tests.passed;
    sum.failed += r.tests.failed;
    sum.skipped += r.tests.skipped;
  }
  return sum;
}

export function removeProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
