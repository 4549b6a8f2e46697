// Verification (docs/design.md §1.9), independent of the engine: the patch is applied to a fresh pristine
// checkout, the full suite runs there, and the result is compared per test with the baseline.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepoConfig } from '../core/repo-config.ts';
import { viewOf, type TestReport } from '../core/test-report.ts';
import type { CheckRun } from '../core/check-result.ts';
import type { Verification } from '../core/run-result.ts';
import type { Finding } from '../core/findings.ts';
import { gateSummary } from '../core/gate-summary.ts';
import { applyPatch, cloneMirror } from '../workspace/create-workspace.ts';
import type { MirrorSeal } from '../workspace/mirror-seal.ts';
import type { PathPolicy } from '../workspace/path-policy.ts';
import type { FileChange } from '../core/file-change.ts';
import { compareTests } from './compare-tests.ts';
import { checkConstraints } from './constraints.ts';
import { findNewDependencies } from './new-dependencies.ts';
import { runSuite, setupEnding, type SuiteRunner } from '../gate/setup-then-gate.ts';
import { checkTestIntegrity } from './test-integrity.ts';
import { judgeEvidence } from './judge-evidence.ts';
import { observeAlone, type ScratchCopies } from './second-observation.ts';
import { copyCheckout } from './copied-tests.ts';
import { runtimeGuardStatus } from './guard-findings.ts';
import { needsText, runnerFileFindings } from './runner-files.ts';
import { exemptFiles } from './exempt-files.ts';
import { harnessNamedFiles } from './harness-named-files.ts';
import { harnessTampering, testFileCheck } from './harness-tampering.ts';
import { shadowFindings } from './runner-shadowing.ts';
import { checkConfigFindings, silencingFindings } from './check-integrity.ts';
import { judgeChecks } from './judge-checks.ts';
import { judgeFlakyReplay } from './flaky-replay.ts';
import type { FlakyTests } from '../gate/flaky-tests.ts';

export interface ReplayInput {
  mirror: string;
  /** The mirror's seal: a mirror the repository's code changed is never replayed from. */
  seal?: MirrorSeal;
  baseSha: string;
  patch: string;
  changes: FileChange[];
  baseline: TestReport;
  /** Whether the suite passed at the baseline: a check run's tests need not pass where they did not. */
  baselinePassed?: boolean;
  /** The run's flaky tests (docs/design.md §3.2.8): their outcomes count for nothing, and the replay may find more. */
  flaky?: FlakyTests;
  config: RepoConfig;
  policy: PathPolicy;
  /** Setup, then the gate, as the run's baseline ran them. */
  suite: SuiteRunner;
  /** A directory of the run's own, where the pristine checkout is made. */
  scratchDir: string;
  log: (line: string) => void;
  /** A long text kept in the attempt's log only (the replay's output), never printed as progress. */
  logSection?: (title: string, body: string) => void;
}

/** Manifest files whose new dependencies are findings unless the configuration allows them. */
const MANIFEST =
  /(^|\/)(package\.json|requirements[^/]*\.txt|pyproject\.toml|go\.mod|Cargo\.toml|pom\.xml|build\.gradle(\.kts)?)$/;

export async function replayPatch(input: ReplayInput): Promise<Verification> {
  const dir = join(input.scratchDir, `replay-${Date.now().toString(36)}`);
  const findings: Finding[] = [...checkConstraints(input.changes, input.policy, input.config.constraints)];
  try {
    await cloneMirror(input.mirror, input.baseSha, dir, input.seal);
    const before = new Map<string, string | null>();
    for (const change of input.changes.filter((c) => MANIFEST.test(c.path) || needsText(c.path)))
      before.set(change.path, await readIfExists(join(dir, change.path)));
    // Asked before the patch is applied: the names are the pristine runner's, the top-level ones the repository's.
    const shadows = await shadowFindings({
      changes: input.changes,
      dir,
      testCommand: input.suite.testCommand,
      run: async (cwd, command) => (await input.suite.gateWith(cwd, command)).output,
      scratchDir: input.scratchDir,
      log: input.log,
    });
    const named = await harnessNamedFiles(dir, input.suite.testCommand);
    try {
      await applyPatch(dir, input.patch);
    } catch (error) {
      findings.push({
        kind: 'replay_failed',
        message: `the patch does not apply to a pristine checkout: ${(error as Error).message}`,
      });
      return notReplayed(findings);
    }
    const texts = await Promise.all(
      [...before.keys()].map(async (path) => ({
        path,
        before: before.get(path) ?? null,
        after: await readIfExists(join(dir, path)),
      })),
    );
    const baselineTestFiles = new Set(input.baseline.tests.flatMap((t) => (t.file ? [t.file] : [])));
    // The configuration and setup files the runtime guard may take as the runner's: the baseline's, unchanged.
    const exempt = await exemptFiles(dir);
    findings.push(...runnerFileFindings(input.changes, texts, baselineTestFiles, named), ...shadows);
    // A check run's tools are judged as the runner is: their settings and their silencing comments.
    if (input.config.checks.length > 0)
      findings.push(...checkConfigFindings(input.changes, texts), ...silencingFindings(input.patch));
    findings.push(
      ...(await harnessTampering({
        dir,
        patch: input.patch,
        isTestFile: testFileCheck(input.config.paths.protected, baselineTestFiles),
        log: input.log,
      })),
    );
    if (!input.config.constraints.allowNewDependencies)
      findings.push(...(await newDependencyFindings(input.changes, dir, before)));
    return await judgeReplayedSuite(input, dir, { testFiles: baselineTestFiles, exempt }, findings);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(copyOf(dir), { recursive: true, force: true });
    await rm(expectationsCopyOf(dir), { recursive: true, force: true });
  }
}

/** Where the replay's checkout is copied for the look from copied test files (copied-tests.ts). */
function copyOf(dir: string): string {
  return `${dir}-copy`;
}

/** Where it is copied for the look with the expected values changed (changed-expectations.ts). */
function expectationsCopyOf(dir: string): string {
  return `${dir}-expect`;
}

/** What a replay that never ran the suite shows: its findings alone (the patch did not apply, the setup failed). */
function notReplayed(findings: Finding[]): Verification {
  return {
    replayed: false,
    passed: false,
    gate: null,
    failToPass: [],
    passToFail: [],
    stillFailing: [],
    newlySkipped: [],
    findings,
  };
}

/** The dependencies each changed manifest names after the patch and did not before (`before`: its pristine text). */
async function newDependencyFindings(
  changes: FileChange[],
  dir: string,
  before: ReadonlyMap<string, string | null>,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const change of changes.filter((c) => MANIFEST.test(c.path))) {
    const added = findNewDependencies(change.path, before.get(change.path) ?? null, await readIfExists(join(dir, change.path)));
    for (const name of added)
      findings.push({ kind: 'new_dependency', path: change.path, message: `new dependency \`${name}\` in ${change.path}` });
  }
  return findings;
}

/**
 * The full suite on the patched pristine checkout, compared per test with the baseline. `findings`:
 * those found so far, to which the run's are added; only a suite green with none is observed twice.
 */
async function judgeReplayedSuite(
  input: ReplayInput,
  dir: string,
  files: { testFiles: ReadonlySet<string>; exempt: readonly string[] },
  findings: Finding[],
): Promise<Verification> {
  const judged = input.suite.judged([...files.testFiles], files.exempt);
  // A check run's checks run after the setup and before the tests, as at the baseline.
  let checkRuns: CheckRun[] = [];
  // The checkout copied after its setup, before any check or test runs there, twice: the copies of the
  // fixed tests' files run in one (copied-tests.ts), the tests with their expected values changed in
  // the other (changed-expectations.ts), where no test could have prepared anything.
  const scratch: ScratchCopies = {
    copies: null,
    expectations: null,
    isTestFile: testFileCheck(input.config.paths.protected, files.testFiles),
  };
  const ran = await runSuite(judged, dir, {
    announce: (step, command) => input.log(step === 'setup' ? `replay: setup: ${command}` : `replay: ${command}`),
    beforeTests: async () => {
      scratch.copies = await copyCheckout(dir, copyOf(dir));
      scratch.expectations = await copyCheckout(dir, expectationsCopyOf(dir));
      checkRuns = await input.suite.checks(dir);
      return undefined;
    },
  });
  if (!ran.gate) {
    findings.push({ kind: 'replay_failed', message: `setup failed on the pristine checkout (${setupEnding(ran.setup)})` });
    return notReplayed(findings);
  }
  const { gate } = ran;
  if (input.logSection) input.logSection('replay output', gate.output);
  else input.log(`==== replay output ====\n${gate.output}`);
  // A flaky test's outcome counts for nothing; a new failure is run again before it counts.
  const flaky = await judgeFlakyReplay({
    baseline: input.baseline,
    gate,
    comparison: compareTests(input.baseline, gate.report),
    flaky: input.flaky,
    suite: judged,
    dir,
    log: input.log,
  });
  const { comparison } = flaky;
  findings.push(...flaky.findings);
  const checked =
    input.config.checks.length > 0 ? judgeChecks(checkRuns, gate, input.baseline, input.baselinePassed ?? true) : null;
  if (checked) findings.push(...checked.findings);
  const suitePassed = gate.passed || flaky.onlyFlakyFailed;
  if (!suitePassed && !checked?.suiteMayFail)
    findings.push({
      kind: 'replay_failed',
      message: `the full suite fails on the pristine checkout with the patch (${gate.reason}${gate.exitCode !== undefined ? ` ${gate.exitCode}` : ''})`,
    });
  for (const id of comparison.passToFail)
    findings.push({ kind: 'pass_to_fail', message: `\`${id}\` passed before and fails now` });
  findings.push(...checkTestIntegrity(input.baseline, gate.report));
  const evidence = judgeEvidence(input.baseline, gate, input.config.test.evidence);
  findings.push(...evidence.findings);
  // Only a suite green so far is worth observing twice.
  const second =
    suitePassed && findings.length === 0
      ? await observeAlone(
          judged,
          dir,
          { final: gate.report, baseline: input.baseline },
          comparison.failToPass,
          input.log,
          scratch,
        )
      : null;
  if (second) findings.push(...second.findings);
  return {
    replayed: true,
    passed: (suitePassed || checked?.suiteMayFail === true) && findings.length === 0,
    gate: gateSummary(gate),
    failToPass: comparison.failToPass,
    passToFail: comparison.passToFail,
    stillFailing: comparison.stillFailing,
    newlySkipped: comparison.newlySkipped,
    findings,
    evidence: evidence.basis,
    runtimeGuard: runtimeGuardStatus(input.baseline, gate.report, input.config.test.evidence),
    baselineView: viewOf(input.baseline),
    ...(second ? { alone: second.observation } : {}),
    ...(checked ? { checks: checked.checks } : {}),
    ...(flaky.discounted.length > 0 ? { flaky: flaky.discounted } : {}),
  };
}

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
