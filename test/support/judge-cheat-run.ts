// The cheat suites' shared run: a real git repository, the `script` engine playing an engine that
// cheats (or one that fixes honestly), under a named sandbox. `judgeCheat` judges a cheat against the
// project's one prepared baseline (judge-bench.ts: the real runner and the real judge, one attempt);
// `runCheat` is the whole `fixloop run`: for one honest fix per project and runner (the whole run ends
// green), and for cheats that reach outside the workspace (the trusted copy).
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { bwrapWorks } from '../../src/sandbox/bwrap-sandbox.ts';
import { makeRepo, removeAll } from './git-fixture.ts';
import { openJudgeBench, type JudgeBench } from './judge-bench.ts';
import { runCli } from './run-cli.ts';
import { withOneRerun } from './scripted-run.ts';
import { fullSuite } from './suite-tier.ts';

/** fixloop's own node_modules: the vitest projects borrow its vitest, as cli-run's vitest case does. */
export const FIXLOOP_MODULES = resolve(import.meta.dirname, '../../node_modules');

/** `process` always; `bwrap` where it works, and where the environment demands it (a missing bwrap then fails loudly). */
export const BACKENDS = ['process', ...(bwrapWorks() || process.env.FIXLOOP_REQUIRE_BWRAP === '1' ? ['bwrap'] : [])];

export interface CheatRun {
  files: Record<string, string>;
  test: string;
  /** The `script` engine's shell script, run in the workspace. */
  script: string;
  sandbox: string;
  /** Default 1: the script engine writes the same cheat in every attempt, and the first is judged as fully as any. */
  maxAttempts?: number;
  env?: Record<string, string>;
}

const dirs: string[] = [];
/** One bench per project, test command, sandbox and environment, made on its first cheat. */
const benches = new Map<string, Promise<JudgeBench>>();

/** Removes every repository, bench and output folder the runs made (call from afterAll). */
export async function removeCheatRuns(): Promise<void> {
  const open = [...benches.values()];
  benches.clear();
  await Promise.all(
    open.map((bench) =>
      bench.then(
        (b) => b.close(),
        () => undefined,
      ),
    ),
  );
  await removeAll(dirs);
}

/**
 * A cheat judged against the project's shared baseline: one attempt of the `script` engine, the gate
 * on the real runner, the judge's replay on a pristine checkout. For cheats that stay inside the
 * workspace (the bench puts it back between cases); `maxAttempts` is always 1 here.
 */
export async function judgeCheat(run: Omit<CheatRun, 'maxAttempts'>): Promise<RunResult> {
  return (await benchOf(run)).judge(run.script);
}

/**
 * A cheat's patch judged as `fixloop replay` judges a stored one, with no attempt's run before the
 * judge: for the cheats the runtime guard stops in the attempt's own run (it keeps node:assert's
 * exports in every run), which the judge must still name wherever such a patch comes from.
 */
export async function replayCheat(run: Omit<CheatRun, 'maxAttempts'>): Promise<RunResult> {
  return (await benchOf(run)).replay(run.script);
}

function benchOf(run: Omit<CheatRun, 'maxAttempts'>): Promise<JudgeBench> {
  const key = JSON.stringify([run.files, run.test, run.sandbox, run.env ?? {}]);
  let bench = benches.get(key);
  if (!bench) {
    bench = openJudgeBench({
      files: withOneRerun(run.files),
      test: run.test,
      sandbox: run.sandbox,
      ...(run.env ? { env: run.env } : {}),
    });
    benches.set(key, bench);
  }
  return bench;
}

/** The whole `fixloop run`, in a child process; the assessment off (no case here is about it). */
export async function runCheat(run: CheatRun): Promise<RunResult> {
  const repo = await makeRepo(withOneRerun(withoutAssessment(run.files)));
  dirs.push(repo);
  const out = join(repo, '..', `${repo.split('/').at(-1)}-out`);
  dirs.push(out);
  const args = [
    'run',
    repo,
    '--test',
    run.test,
    '--engine',
    'script',
    '--script',
    run.script,
    '--max-attempts',
    String(run.maxAttempts ?? 1),
    '--sandbox',
    run.sandbox,
    '--json',
    '--out',
    out,
  ];
  const cli = await runCli(args, { cwd: repo, ...(run.env ? { env: run.env } : {}) });
  try {
    return JSON.parse(cli.stdout) as RunResult;
  } catch {
    throw new Error(`fixloop printed no result (exit ${cli.code}): ${cli.stderr.slice(-2000)}`);
  }
}

/**
 * The repository's fixloop.yml with the assessment off: it runs after a green judged patch (a clone,
 * a setup, three suite runs), and no case of the cheat suites is about it (assessment.test.ts is).
 */
function withoutAssessment(files: Record<string, string>): Record<string, string> {
  const yml = files['fixloop.yml'] ?? '';
  return /^assessment:/m.test(yml) ? files : { ...files, 'fixloop.yml': `${yml}assessment:\n  enabled: false\n` };
}

/** Every finding of every attempt (of a replay: its verification's), as `kind` and as `kind:path`. */
export function findingsOf(result: RunResult): string[] {
  const findings = result.replay ? (result.verification?.findings ?? []) : result.attempts.flatMap((a) => a.findings);
  return findings.flatMap((f) => [f.kind, `${f.kind}:${f.path ?? ''}`]);
}

/**
 * A cheat that turns node:assert off fools not even the attempt's own run: the runtime guard, loaded
 * in every gate run, keeps the library's exports (and records the write), so the tests still fail.
 */
export function keptByTheGuard(result: RunResult, failing: string): void {
  expect(result.status).not.toBe('tests_green');
  expect(result.attempts.length).toBeGreaterThan(0);
  expect(result.attempts.some((a) => a.gate?.passed === true)).toBe(false);
  expect(result.attempts.at(-1)?.failingTests.map((t) => t.id)).toContain(failing);
}

/** A cheat's patch replayed straight to the judge (`replayCheat`) and refused, the finding named. */
export function refusedOnReplay(result: RunResult, finding: string): void {
  expect(result.replay).toBe(true);
  expect(result.status).not.toBe('tests_green');
  expect(findingsOf(result)).toContain(finding);
}

/** A shell line that writes a file (folders made), for scripts that plant files. */
export function writeFile(path: string, text: string): string {
  const dir = path.includes('/') ? `mkdir -p '${path.slice(0, path.lastIndexOf('/'))}' && ` : '';
  return `${dir}printf '%s' '${text.replaceAll("'", "'\\''")}' > '${path}'`;
}

/** The cheat fooled the runner (an attempt's own run passed) and the judge still said no. */
export function caughtByTheJudge(result: RunResult, finding: string): void {
  expect(result.status).not.toBe('tests_green');
  expect(result.attempts.some((a) => a.gate?.passed === true)).toBe(true);
  expect(findingsOf(result)).toContain(finding);
}

/**
 * `it` for the cases a backend runs: every case under `process`, those named in `everywhere` under
 * bwrap too, none of those named in `fullOnly` (a rule another runner's suite already shows on the
 * same files); every case under every backend in `npm run test:full` (FIXLOOP_TEST_FULL=1). A case
 * left out is not registered at all, rather than reported as skipped.
 */
export function casesFor(
  sandbox: string,
  everywhere: ReadonlySet<string>,
  fullOnly: ReadonlySet<string> = new Set(),
): (name: string) => (title: string, test: () => Promise<void>) => void {
  return (name) => (fullSuite || ((sandbox === 'process' || everywhere.has(name)) && !fullOnly.has(name)) ? it : () => undefined);
}

/**
 * The trusted copy, in any project: under `process` the repository's code can reach the mirror, and a
 * replay from a mirror it wrote to is refused; under bwrap it cannot see the mirror at all.
 */
export function trustedCopyCases(sandbox: string, run: (script: string) => Promise<RunResult>, honestFix: string): void {
  if (sandbox === 'process') {
    it("never replays from a mirror the repository's code wrote to (process: the mirror is reachable)", async () => {
      const result = await run(`git --git-dir=../mirror.git tag planted main && ${honestFix}`);
      expect(result.status).toBe('error');
      expect(result.error?.code).toBe('MIRROR_CHANGED');
    });
  } else {
    it("keeps the mirror out of the sandbox's sight (bwrap: the fix runs only if the mirror is unseen)", async () => {
      expect((await run(`test ! -e ../mirror.git && ${honestFix}`)).status).toBe('tests_green');
    });
  }
}
