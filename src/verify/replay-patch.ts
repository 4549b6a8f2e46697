// Verification (DESIGN.md §1.8), independent of the engine: the patch is applied to a fresh pristine
// checkout, the full suite runs there, and the result is compared per test with the baseline.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepoConfig } from '../core/repo-config.ts';
import { runGate } from '../gate/run-gate.ts';
import type { TestReport } from '../core/test-report.ts';
import type { Verification } from '../core/run-result.ts';
import type { Finding } from '../core/findings.ts';
import { gateSummary } from '../report/summarize.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { applyPatch, cloneMirror } from '../workspace/create-workspace.ts';
import type { PathPolicy } from '../workspace/path-policy.ts';
import type { FileChange } from '../core/file-change.ts';
import { compareTests } from './compare-tests.ts';
import { checkConstraints } from './constraints.ts';
import { findNewDependencies } from './new-dependencies.ts';
import { checkTestIntegrity } from './test-integrity.ts';

export interface ReplayInput {
  mirror: string;
  baseSha: string;
  patch: string;
  changes: FileChange[];
  baseline: TestReport;
  config: RepoConfig;
  policy: PathPolicy;
  sandbox: Sandbox;
  setupNetwork?: boolean;
  /** A directory of the run's own, where the pristine checkout is made. */
  scratchDir: string;
  signal: AbortSignal;
  log: (line: string) => void;
}

/** Manifest files whose new dependencies are findings unless the configuration allows them. */
const MANIFEST = /(^|\/)(package\.json|requirements[^/]*\.txt|pyproject\.toml|go\.mod|Cargo\.toml|pom\.xml|build\.gradle(\.kts)?)$/;

export async function replayPatch(input: ReplayInput): Promise<Verification> {
  const dir = join(input.scratchDir, `replay-${Date.now().toString(36)}`);
  const findings: Finding[] = [...checkConstraints(input.changes, input.policy, input.config.constraints)];
  const empty: Verification = { replayed: false, passed: false, gate: null, failToPass: [], passToFail: [], stillFailing: [], newlySkipped: [], findings };
  try {
    await cloneMirror(input.mirror, input.baseSha, dir);
    const manifests = input.changes.filter((c) => MANIFEST.test(c.path));
    const before = new Map<string, string | null>();
    for (const change of manifests) before.set(change.path, await readIfExists(join(dir, change.path)));
    try {
      await applyPatch(dir, input.patch);
    } catch (error) {
      findings.push({ kind: 'replay_failed', message: `the patch does not apply to a pristine checkout: ${(error as Error).message}` });
      return empty;
    }
    if (!input.config.constraints.allowNewDependencies) {
      for (const change of manifests) {
        const added = findNewDependencies(change.path, before.get(change.path) ?? null, await readIfExists(join(dir, change.path)));
        for (const name of added) findings.push({ kind: 'new_dependency', path: change.path, message: `new dependency \`${name}\` in ${change.path}` });
      }
    }
    if (input.config.setup.command) {
      input.log(`replay: setup: ${input.config.setup.command}`);
      const setup = await input.sandbox.run({ command: input.config.setup.command, cwd: dir, timeoutMs: input.config.setup.timeout * 1000, env: input.config.env, signal: input.signal, network: input.setupNetwork === true });
      if (setup.exitCode !== 0) {
        findings.push({ kind: 'replay_failed', message: `setup failed on the pristine checkout (exit ${setup.exitCode ?? setup.signal})` });
        return empty;
      }
    }
    const command = input.config.test.command ?? '';
    input.log(`replay: ${command}`);
    const gate = await runGate(input.sandbox, {
      command,
      cwd: dir,
      timeoutMs: input.config.test.timeout * 1000,
      env: input.config.env,
      signal: input.signal,
      ...(input.config.test.report ? { reportFile: input.config.test.report } : {}),
    });
    input.log(`==== replay output ====\n${gate.output}`);
    const comparison = compareTests(input.baseline, gate.report);
    if (!gate.passed) findings.push({ kind: 'replay_failed', message: `the full suite fails on the pristine checkout with the patch (${gate.reason}${gate.exitCode !== undefined ? ` ${gate.exitCode}` : ''})` });
    for (const id of comparison.passToFail) findings.push({ kind: 'pass_to_fail', message: `\`${id}\` passed before and fails now` });
    findings.push(...checkTestIntegrity(input.baseline, gate.report));
    return {
      replayed: true,
      passed: gate.passed && findings.length === 0,
      gate: gateSummary(gate),
      failToPass: comparison.failToPass,
      passToFail: comparison.passToFail,
      stillFailing: comparison.stillFailing,
      newlySkipped: comparison.newlySkipped,
      findings,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
