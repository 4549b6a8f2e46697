// The runtime guard in every test process the gate starts (docs/design.md §3.2.7), asked like the
// runner's machine report (machine-report.ts): the runner the command starts says, through its
// descriptor, how its processes load fixloop's guard; the gate gives the guard a folder for its code
// (shown read-only) and one for its records (shown writable), both outside the checkout, adds what it
// asks to the command's environment or command line, and reads the records once the command has
// ended. The records name the tests for every run (per-test-view.ts); what they mean for the verdict
// is the judge's, in judged runs only (src/verify/guard-findings.ts).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Mount } from '../sandbox/sandbox.ts';
import type { GuardObservation } from '../core/test-report.ts';
import { RUNNER_VARIABLE_SOURCES, runnerOf } from '../runners/registry.ts';
import { packageScriptsNow } from '../runners/package-scripts.ts';
import type { GuardDirs, RuntimeGuard } from '../runners/runner.ts';
import type { NameTestCase } from './per-test-view.ts';

export interface RuntimeGuardContext {
  command: string;
  /** Where the command runs: the checkout (its package.json says what `npm test` starts). */
  cwd: string;
  /** The environment the command gets so far (config.env, the machine report's request). */
  env: Record<string, string>;
  /** The baseline's test files, relative to `cwd` (none at the baseline itself, nor where they are not known). */
  testFiles: readonly string[];
  /** The configuration and setup files the judge listed (GuardContext.exemptFiles); absent: every file so named. */
  exemptFiles?: readonly string[];
}

export interface RuntimeGuardRequest {
  command: string;
  env: Record<string, string>;
  mounts: Mount[];
  /** What the guard recorded; null when the command's runner has none (the report says so). */
  read(): Promise<GuardObservation | null>;
  /** The runner's name for a test its guard recorded (absent: its guard names none). */
  testCase?: NameTestCase;
  dispose(): Promise<void>;
}

/** The command as it is, with no guard: a runner that has none (its report's `guard` is null). */
export function noRuntimeGuard(command: string): RuntimeGuardRequest {
  return { command, env: {}, mounts: [], read: () => Promise.resolve(null), dispose: () => Promise.resolve() };
}

export async function requestRuntimeGuard(context: RuntimeGuardContext): Promise<RuntimeGuardRequest> {
  const packageScripts = packageScriptsNow(context.cwd);
  const runner = runnerOf(context.command, packageScripts);
  const none = noRuntimeGuard(context.command);
  if (!runner?.guard) return none;
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-guard-'));
  const dirs: GuardDirs = { code: join(dir, 'code'), records: join(dir, 'records') };
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    await Promise.all([mkdir(dirs.code), mkdir(dirs.records)]);
    const asked = await runner.guard.ask(
      {
        command: context.command,
        env: context.env,
        packageScripts,
        root: context.cwd,
        testFiles: context.testFiles,
        ...(context.exemptFiles ? { exemptFiles: context.exemptFiles } : {}),
        runnerVariables: RUNNER_VARIABLE_SOURCES,
      },
      dirs,
    );
    if (!asked) {
      await dispose();
      return none;
    }
    const guard: RuntimeGuard = runner.guard;
    return {
      command: asked.command ?? context.command,
      env: asked.env ?? {},
      // The records folder after the code's: the code stays read-only whatever the order of mounts.
      mounts: [{ path: dirs.code }, { path: dirs.records, writable: true }],
      read: async () => ({ runner: runner.id, records: await guard.read(dirs) }),
      ...(guard.testCase ? { testCase: guard.testCase.bind(guard) } : {}),
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
