// The product's own assessment (assess-patch.ts) of a patch with the alternatives a bench chooses:
// the upstream fix (upstream-oracle.ts), or the other plausible candidates at the patch's line (what
// the `repair` engine's exploration hands the assessment, overfit-written.ts). The project is made
// a git repository with one commit, as the assessment clones its checkout from a mirror.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Assessment } from '../../src/core/assessment.ts';
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import type { CommandResult } from '../../src/sandbox/sandbox.ts';
import { createSuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { assessPatch } from '../../src/assess/assess-patch.ts';
import type { CandidateInfo } from '../../src/assess/assessment-level.ts';
import { testFileCheck } from '../../src/verify/harness-tampering.ts';

const LIMIT_MS = 15 * 60_000;

export interface AssessAgainstInput {
  /** The project's files, unpatched, in a folder of their own (removed afterwards). */
  project: string;
  test: string;
  /** The project's setup in the assessment's checkout: a string says why it failed. */
  setUp?: { command: string; run: (cwd: string) => Promise<string | null> };
  patch: string;
  alternatives: CandidateInfo[];
  /** The baseline's failing tests, as the run that found the patch saw them. */
  failing: readonly TestCaseResult[];
}

function git(dir: string, args: string[]): string {
  const env = {
    ...process.env,
    GIT_CEILING_DIRECTORIES: join(dir, '..'),
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'bench@localhost',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'bench@localhost',
  };
  return execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim();
}

function setupFailure(output: string): CommandResult {
  return { exitCode: 1, signal: null, timedOut: false, killed: false, output, truncatedBytes: 0, durationMs: 0 };
}

export async function assessAgainst(input: AssessAgainstInput): Promise<Assessment> {
  const mirror = input.project;
  const scratch = mkdtempSync(join(tmpdir(), 'fixloop-bench-assess-scratch-'));
  try {
    git(mirror, ['init', '-q']);
    git(mirror, ['add', '-A']);
    git(mirror, ['commit', '-q', '-m', 'snapshot']);
    const baseSha = git(mirror, ['rev-parse', 'HEAD']);
    const config = repoConfigSchema.parse({ test: { command: input.test, timeout: 600 } });
    const runner = createSuiteRunner({
      sandbox: createProcessSandbox(),
      config,
      signal: new AbortController().signal,
      setupNetwork: true,
    });
    const setUp = input.setUp;
    // The bench's own setup (a bug's kept node_modules), in the assessment's checkout as in any other.
    const suite = setUp
      ? {
          ...runner,
          setupCommand: setUp.command,
          async setup(cwd: string) {
            const problem = await setUp.run(cwd);
            return problem ? setupFailure(problem) : null;
          },
        }
      : runner;
    const testFiles = new Set(input.failing.flatMap((t) => (t.file ? [t.file] : [])));
    return await assessPatch({
      mirror,
      baseSha,
      patch: input.patch,
      alternatives: input.alternatives,
      fixed: [...input.failing],
      isTestFile: testFileCheck([], testFiles),
      suite,
      scratchDir: scratch,
      limitMs: LIMIT_MS,
      log: () => {},
    });
  } finally {
    rmSync(mirror, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}
