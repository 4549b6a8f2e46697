// `fixloop replay <id>`: the stored, verified patch of an App run, verified again from scratch on a
// fresh clone of its commit, assembled as every run is (`runLocal`): setup with the repository's
// dependency cache, the pristine suite as the baseline, the environment check (a broken environment
// is an error with its cause, not a failed replay), the patch, the suite, the comparison. What is the
// replay's own: the stored run read, its lines on stdout, the audit trail, the exit code.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { CloneAuth } from '../core/clone-auth.ts';
import type { FixRequest } from '../core/fix-request.ts';
import type { TestCounts, Verification } from '../core/run-result.ts';
import { runLocal } from '../loop/local-run.ts';
import { EXIT, exitCodeFor } from './exit-codes.ts';
import { openStoredRun, verifiedPatchOf, type StoredRun } from './stored-run.ts';

export interface ReplayOptions {
  dataDir: string;
  runId: string;
  sandbox: Sandbox;
  setupNetwork: boolean;
  /** Where dependency caches live (the App's: the same repository's cache serves its runs and replays). */
  cacheDir?: string;
  auth?: CloneAuth;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  signal?: AbortSignal;
}

/** Returns the exit code: 0 when the patch verified again, 1 when it did not, 2 or 3 when the replay could not happen. */
export async function replayRun(options: ReplayOptions): Promise<number> {
  const run = await openStoredRun(options.dataDir, options.runId);
  const scratch = await mkdtemp(join(tmpdir(), 'fixloop-replay-'));
  try {
    const patch = verifiedPatchOf(run);
    const artifactsDir = run.job.artifactsDir ?? scratch;
    options.stdout(`Replaying run ${options.runId}: ${run.data.plan.cloneUrl} at ${run.result.repository.sha.slice(0, 12)}\n`);
    const { result } = await runLocal(
      { request: replayRequest(run), replay: { patch, changes: run.result.filesChanged } },
      {
        sandbox: options.sandbox,
        setupNetwork: options.setupNetwork,
        // The replay's logs (setup.log, replay.log) and report are kept beside the run's own.
        artifactsRoot: artifactsDir,
        artifactsDir: join(artifactsDir, `replay-${Date.now().toString(36)}`),
        tmpRoot: scratch,
        ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
        ...(options.auth ? { auth: options.auth } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
    const verification = result.verification;
    if (result.status === 'error' || !verification) {
      options.stderr(`fixloop: ${result.error?.message ?? result.headline}\n`);
      await run.store.append(options.runId, 'replayed', { passed: false, error: result.error?.code ?? 'INTERNAL' });
      return exitCodeFor(result);
    }
    options.stdout(replayLines(result.baseline, verification));
    await run.store.append(options.runId, 'replayed', {
      passed: verification.passed,
      failToPass: verification.failToPass.length,
      passToFail: verification.passToFail.length,
    });
    return verification.passed ? EXIT.ok : EXIT.notFixed;
  } finally {
    await run.store.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The stored run's request again: its repository at the commit it worked on, its configuration as stored. */
function replayRequest(run: StoredRun): FixRequest {
  const { plan, config } = run.data;
  return {
    runId: run.job.runId,
    repository: { cloneUrl: plan.cloneUrl, ref: plan.ref, sha: run.result.repository.sha, baseRef: null },
    trigger: { kind: plan.kind, number: plan.number, deliveryId: plan.deliveryId, actor: plan.actor },
    goal: plan.goal,
    hints: [],
    config,
  };
}

/** What the replay found, as `fixloop replay` has always printed it (a baseline unread per test prints its counts). */
function replayLines(baseline: TestCounts, verification: Verification): string {
  const list = (ids: string[]) => (ids.length ? ids.join(', ') : 'none');
  return [
    `Baseline on the fresh clone: ${baseline.failed === 0 && baseline.parsed ? 'passing' : `${baseline.failed} failing of ${baseline.total}`}`,
    `Patched: ${verification.gate?.passed ? 'passing' : 'failing'}; fail → pass: ${list(verification.failToPass)}; pass → fail: ${list(verification.passToFail)}`,
    ...verification.findings.map((f) => `Finding: ${f.kind}: ${f.message}`),
    verification.passed ? 'Verified again.' : 'NOT verified.',
    '',
  ].join('\n');
}
