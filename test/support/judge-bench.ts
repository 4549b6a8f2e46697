// Many cheats judged against one prepared project: the clone, the configuration, the suite and the
// baseline are made once, through the same steps `runLocal` takes (src/loop/prepare-run.ts); then each
// cheat is one fix loop of one attempt (`fixAndVerify`): the `script` engine writes the cheat in the
// workspace, the real runner runs the gate, and the judge replays the patch on a pristine checkout of
// the mirror, as in a whole `fixloop run`. Between cheats the workspace is put back to the baseline,
// and checked to be there. What is saved is fixloop's start, the clone and the baseline of every case
// after the first (about two thirds of a cheat case's time); the cheat itself runs exactly as before.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent, RunResult } from '../../src/core/run-result.ts';
import { createScriptEngine } from '../../src/engines/script-engine.ts';
import { createArtifacts } from '../../src/loop/artifacts.ts';
import { localRequest, repositoryConfig } from '../../src/loop/local-request.ts';
import { openWorkspace, prepareSuite, runBaseline, type PreparedRun } from '../../src/loop/prepare-run.ts';
import { createRunContext, type RunContext } from '../../src/loop/run-context.ts';
import { fixAndVerify } from '../../src/loop/run-phases.ts';
import { initialResult } from '../../src/loop/local-run.ts';
import { replayStoredPatch } from '../../src/loop/replay-stored-patch.ts';
import { cacheRootFrom } from '../../src/core/data-dir.ts';
import { selectSandbox, type SandboxChoice } from '../../src/sandbox/select-sandbox.ts';
import type { Snapshot } from '../../src/workspace/workspace.ts';
import { makeRepo } from './git-fixture.ts';

export interface BenchProject {
  files: Record<string, string>;
  test: string;
  sandbox: string;
  /** Added to this process's environment, as `runCli`'s `env` is to the CLI's. */
  env?: Record<string, string>;
}

export interface JudgeBench {
  /** One cheat, written by the `script` engine in one attempt from the baseline, and judged. */
  judge(script: string): Promise<RunResult>;
  /**
   * One cheat written by `script` in the workspace and its patch replayed straight to the judge, as
   * `fixloop replay` judges a stored patch: no attempt's run stands before it (a cheat the runtime
   * guard, loaded in every run, stops in the attempt's own run still meets the judge here).
   */
  replay(script: string): Promise<RunResult>;
  /** Removes the workspace, the repository and the run's folders. */
  close(): Promise<void>;
}

/**
 * `env` in this process's environment while `work` runs, as the CLI's child has it: fixloop's own
 * helpers (the judge's Python reader of syntax trees, git) find their programs on process.env.PATH,
 * and a bench must find the same ones a whole run finds (python3 past pyenv's shim). The cases of a
 * file run one after another, so nothing else sees it.
 */
async function withEnv<T>(env: Record<string, string> | undefined, work: () => Promise<T>): Promise<T> {
  const saved = Object.entries(env ?? {}).map(([key]) => [key, process.env[key]] as const);
  Object.assign(process.env, env);
  try {
    return await work();
  } finally {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

export async function openJudgeBench(project: BenchProject): Promise<JudgeBench> {
  const bench = await withEnv(project.env, () => prepareBench(project));
  return {
    judge: (script) => withEnv(project.env, () => bench.judge(script)),
    replay: (script) => withEnv(project.env, () => bench.replay(script)),
    close: bench.close,
  };
}

async function prepareBench(project: BenchProject): Promise<JudgeBench> {
  const repo = await makeRepo(project.files);
  const work = await mkdtemp(join(tmpdir(), 'fixloop-judge-bench-'));
  const env = { ...process.env, ...project.env };
  // As `fixloop run REPO --test … --engine script --max-attempts 1 --sandbox …` sets it up.
  const config = await repositoryConfig(repo, { test: project.test, engines: ['script'], script: 'true', maxAttempts: 1 });
  const request = localRequest({ source: repo, config });
  const { sandbox } = selectSandbox(project.sandbox as SandboxChoice, env);
  const ctx = await benchContext(
    request,
    { sandbox, artifactsRoot: join(work, 'runs'), tmpRoot: work, cacheDir: cacheRootFrom(env) },
    work,
  );
  let dispose = async (): Promise<void> => undefined;
  const close = async () => {
    ctx.finish(ctx.base);
    await dispose().catch(() => undefined);
    await Promise.all([repo, work].map((d) => rm(d, { recursive: true, force: true })));
  };
  try {
    const opened = await openWorkspace(
      ctx,
      { test: project.test, engines: ['script'], script: 'true', maxAttempts: 1 },
      (created) => (dispose = () => created.workspace.dispose()),
    );
    const prepared = await runBaseline(ctx, opened, await prepareSuite(ctx, opened));
    if ('status' in prepared)
      throw new Error(`the bench's baseline ended the run: ${prepared.status} ${prepared.error?.message ?? ''}`);
    const pristine = await prepared.workspace.snapshot();
    return {
      judge: (script) => judgeOne(ctx, prepared, pristine, script),
      replay: (script) => replayOne(ctx, prepared, pristine, script),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function benchContext(
  request: ReturnType<typeof localRequest>,
  deps: Parameters<typeof createRunContext>[1],
  work: string,
): Promise<RunContext> {
  const events: RunEvent[] = [];
  const artifacts = await createArtifacts(join(work, 'runs', request.runId));
  const base: RunResult = initialResult(request, deps, {
    artifactsDir: artifacts.dir,
    startedAt: new Date().toISOString(),
    events,
  });
  return createRunContext(request, deps, { base, artifacts, scratch: work, events, started: Date.now() });
}

/** The cheat as the script engine's command, one attempt, a fresh time budget; the workspace put back after. */
async function judgeOne(ctx: RunContext, prepared: PreparedRun, pristine: Snapshot, script: string): Promise<RunResult> {
  const { config } = prepared;
  await backToBaseline(prepared, pristine);
  const from = ctx.base.events.length;
  const run: PreparedRun = {
    ...prepared,
    config: { ...config, script: { ...config.script, command: script } },
    deadline: Date.now() + config.loop.timeBudget * 1000,
  };
  try {
    const result = await fixAndVerify(ctx, run, { engines: [createScriptEngine()], reviewer: null, budget: null });
    return { ...result, events: result.events.slice(from) };
  } finally {
    await backToBaseline(prepared, pristine);
  }
}

/** The cheat's script run in the workspace (in the sandbox, as the script engine runs it), its patch replayed and judged. */
async function replayOne(ctx: RunContext, prepared: PreparedRun, pristine: Snapshot, script: string): Promise<RunResult> {
  await backToBaseline(prepared, pristine);
  try {
    const wrote = await prepared.sandbox.run({ command: script, cwd: prepared.workspace.root, timeoutMs: 60_000 });
    if (wrote.exitCode !== 0) throw new Error(`the cheat's script failed (exit ${wrote.exitCode}): ${wrote.output}`);
    const stored = { patch: await prepared.workspace.diff(), changes: await prepared.workspace.changes() };
    return await replayStoredPatch(ctx, prepared, stored);
  } finally {
    await backToBaseline(prepared, pristine);
  }
}

/** Every change of the last cheat reverted, and nothing left over that a later case would start from. */
async function backToBaseline(prepared: PreparedRun, pristine: Snapshot): Promise<void> {
  await prepared.workspace.restore(pristine);
  const left = await prepared.workspace.changes();
  if (left.length > 0)
    throw new Error(`the bench's workspace is not back at the baseline: ${left.map((c) => c.path).join(', ')}`);
}
