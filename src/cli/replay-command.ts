// `fixloop replay <id>`: the stored, verified patch of an App run, verified again from scratch on a
// fresh clone: setup, the pristine suite as the baseline, the patch, the suite, the comparison.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { CloneAuth } from '../core/clone-auth.ts';
import { replayPatch } from '../verify/replay-patch.ts';
import { createSuiteRunner, runSuite, setupEnding } from '../gate/setup-then-gate.ts';
import { createWorkspace } from '../workspace/create-workspace.ts';
import { createPathPolicy } from '../workspace/path-policy.ts';
import { openStoredRun, verifiedPatchOf } from './stored-run.ts';

export interface ReplayOptions {
  dataDir: string;
  runId: string;
  sandbox: Sandbox;
  setupNetwork: boolean;
  auth?: CloneAuth;
  stdout: (text: string) => void;
  signal?: AbortSignal;
}

/** Returns whether the patch verified again. */
export async function replayRun(options: ReplayOptions): Promise<boolean> {
  const run = await openStoredRun(options.dataDir, options.runId);
  const scratch = await mkdtemp(join(tmpdir(), 'fixloop-replay-'));
  const signal = options.signal ?? new AbortController().signal;
  try {
    const patch = verifiedPatchOf(run);
    const { plan, config } = run.data;
    const policy = createPathPolicy(config.paths);
    options.stdout(`Replaying run ${options.runId}: ${plan.cloneUrl} at ${run.result.repository.sha.slice(0, 12)}\n`);
    const created = await createWorkspace({ source: plan.cloneUrl, ref: plan.ref, sha: run.result.repository.sha, tmpRoot: scratch, policy, ...(options.auth ? { auth: options.auth } : {}) });
    const ws = created.workspace;
    const suite = createSuiteRunner({ sandbox: options.sandbox, config, signal, setupNetwork: options.setupNetwork });
    const ran = await runSuite(suite, ws.root);
    if (!ran.gate) throw new Error(`the setup command failed on the fresh clone (${setupEnding(ran.setup)})`);
    const baseline = ran.gate;
    const verification = await replayPatch({
      mirror: created.mirror,
      seal: created.seal,
      baseSha: ws.baseSha,
      patch,
      changes: run.result.filesChanged,
      baseline: baseline.report,
      config,
      policy,
      suite,
      scratchDir: scratch,
      log: () => undefined,
    });
    const list = (ids: string[]) => (ids.length ? ids.join(', ') : 'none');
    options.stdout(
      [
        `Baseline on the fresh clone: ${baseline.passed ? 'passing' : `${baseline.report.failed} failing of ${baseline.report.total}`}`,
        `Patched: ${verification.gate?.passed ? 'passing' : 'failing'}; fail → pass: ${list(verification.failToPass)}; pass → fail: ${list(verification.passToFail)}`,
        ...verification.findings.map((f) => `Finding: ${f.kind}: ${f.message}`),
        verification.passed ? 'Verified again.' : 'NOT verified.',
        '',
      ].join('\n'),
    );
    await run.store.append(options.runId, 'replayed', { passed: verification.passed, failToPass: verification.failToPass.length, passToFail: verification.passToFail.length });
    await ws.dispose();
    return verification.passed;
  } finally {
    await run.store.close();
    await rm(scratch, { recursive: true, force: true });
  }
}
