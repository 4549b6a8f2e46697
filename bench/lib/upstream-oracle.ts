// An oracle independent of the visible tests (issue 30, item 4): a plausible candidate run against
// the upstream fix, on the suite's calls of every function either one changes and on inputs
// generated around them. It is the product's own assessment (assess-patch.ts) with the candidate
// as the chosen patch and the upstream fix as its one alternative: where the alternative
// "disagrees", the candidate and the upstream fix return different results. A candidate that
// agrees everywhere compared is very likely right; one that differs is shown where, for the person
// who judges it (the hand judgement in meta.json stays the verdict the counts use).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AlternativePatch } from '../../src/core/assessment.ts';
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import { createSuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { assessPatch } from '../../src/verify/assess/assess-patch.ts';
import { testFileCheck } from '../../src/verify/harness-tampering.ts';
import { materializeReal, setUp, type RealBug } from './real-corpus.ts';
import { shell } from './workdir.ts';

export type OracleVerdict =
  | { verdict: 'agrees'; suiteCalls: number; generatedInputs: number }
  | { verdict: 'differs'; disagreements: AlternativePatch['disagreements'] }
  | { verdict: 'not compared'; why: string };

const LIMIT_MS = 15 * 60_000;

function git(dir: string, args: string[]): string {
  const env = { ...process.env, GIT_CEILING_DIRECTORIES: join(dir, '..'), GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@localhost', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@localhost' };
  return execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim();
}

/** `failing`: the baseline's failing tests, as the run that found the candidate saw them. */
export async function compareWithUpstream(bug: RealBug, patch: string, failing: readonly TestCaseResult[]): Promise<OracleVerdict> {
  const mirror = materializeReal(bug, 'oracle');
  const scratch = mkdtempSync(join(tmpdir(), 'fixloop-real-oracle-scratch-'));
  try {
    git(mirror, ['init', '-q']);
    git(mirror, ['add', '-A']);
    git(mirror, ['commit', '-q', '-m', 'snapshot']);
    const baseSha = git(mirror, ['rev-parse', 'HEAD']);
    const config = repoConfigSchema.parse({ test: { command: bug.test, timeout: 600 } });
    const runner = createSuiteRunner({ sandbox: createProcessSandbox(), config, signal: new AbortController().signal, setupNetwork: true });
    // The bench's own setup (its kept node_modules), in the assessment's checkout as in any other.
    const suite = {
      ...runner,
      setupCommand: bug.setup ?? null,
      async setup(cwd: string) {
        const problem = await setUp(bug, cwd, (command, at) => shell(command, at, LIMIT_MS));
        return problem ? { exitCode: 1, signal: null, timedOut: false, killed: false, output: problem, truncatedBytes: 0, durationMs: 0 } : null;
      },
    };
    const testFiles = new Set(failing.flatMap((t) => (t.file ? [t.file] : [])));
    const upstream = readFileSync(join(bug.dir, 'fix.patch'), 'utf8');
    const assessment = await assessPatch({
      mirror,
      baseSha,
      patch,
      alternatives: [{ patch: upstream, summary: 'the upstream fix' }],
      fixed: [...failing],
      isTestFile: testFileCheck([], testFiles),
      suite,
      scratchDir: scratch,
      limitMs: LIMIT_MS,
      log: () => {},
    });
    const theirs = assessment.alternatives[0];
    if (!theirs || assessment.counts.suiteCalls === 0) return { verdict: 'not compared', why: assessment.reason };
    if (theirs.disagreements.length > 0) return { verdict: 'differs', disagreements: theirs.disagreements };
    return { verdict: 'agrees', suiteCalls: assessment.counts.suiteCalls, generatedInputs: assessment.counts.generatedInputs };
  } finally {
    rmSync(mirror, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** One line for a table or a log. */
export function oracleText(verdict: OracleVerdict): string {
  if (verdict.verdict === 'agrees') return `agrees with the upstream fix on ${verdict.suiteCalls} suite calls and ${verdict.generatedInputs} generated inputs`;
  if (verdict.verdict === 'not compared') return `not compared: ${verdict.why}`;
  const shown = verdict.disagreements.slice(0, 3).map((d) => `\`${d.input}\`: ${d.chosen} (candidate) vs ${d.alternative} (upstream)`);
  return `differs from the upstream fix on ${verdict.disagreements.length} input(s): ${shown.join('; ')}`;
}
