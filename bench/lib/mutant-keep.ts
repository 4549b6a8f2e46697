// Which mutants are wrong-but-plausible patches (issue 47, item 2): those that pass the bug's whole
// suite (the upstream tests included), as the repair engine validates a candidate (the failing
// tests first, then the whole suite, in the bug's set-up checkout), and that an input shows
// different from the upstream fix. The input is found by running both: the product's own
// assessment with the mutant as the patch and the upstream fix as its one rival
// (upstream-oracle.ts), on the suite's calls of every changed function and inputs generated
// around them. A mutant no compared input tells from the upstream fix is dropped as equivalent.
// That is circular when the assessment is what is measured: `keepUnjudged` keeps every mutant that
// passes the whole suite, for bench/mutant-separate.ts to separate by hand-written programs instead.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import { candidateRunTimeout } from '../../src/core/candidate-run-timeout.ts';
import { runGate } from '../../src/gate/run-gate.ts';
import { focusedTestCommand } from '../../src/runners/focused-test-command.ts';
import { packageScriptsNow } from '../../src/runners/package-scripts.ts';
import { fixLines } from './fix-lines.ts';
import type { Mutant } from './mutant-generate.ts';
import type { MutantsFile } from './mutant-files.ts';
import { realBaseline } from './real-candidates.ts';
import { applyPatch, materializeReal, type RealBug } from './real-corpus.ts';
import { compareWithUpstream, type OracleVerdict } from './upstream-oracle.ts';

const TEST_TIMEOUT_MS = 300_000;
/** Separating inputs kept per mutant in mutants.json: the first few say enough. */
const SEPARATIONS_KEPT = 5;
const INPUTS_KEPT = 200;

type Outcome = Omit<MutantsFile, 'bug' | 'upstream' | 'commit'>;

/** What a suite run needs of a patch, generated or written by hand. */
type Runnable = Pick<Mutant, 'file' | 'line' | 'description' | 'patch'> & { origin: string };

/**
 * The mutants (of the first `max`) that pass the whole suite, with the bug's failing tests at its
 * baseline: the failing tests alone first (a cheap refusal), then the whole suite.
 */
export async function plausibleMutants<M extends Runnable>(
  bug: RealBug,
  mutants: readonly M[],
  max: number,
  log: (line: string) => void,
): Promise<{ plausible: M[]; failing: TestCaseResult[]; tried: number } | string> {
  const dir = materializeReal(bug, 'mutants');
  try {
    const baseline = await realBaseline(bug, dir, TEST_TIMEOUT_MS);
    if (typeof baseline === 'string') return baseline;
    const { sandbox, signal, gate } = baseline;
    const failing = gate.report.tests.filter((t) => t.status === 'failed');
    if (failing.length === 0) return 'the baseline has no failing test';
    const focused = focusedTestCommand(bug.test, failing, packageScriptsNow(dir));
    const timeoutMs = candidateRunTimeout(gate.durationMs, TEST_TIMEOUT_MS);
    const plausible: M[] = [];
    const tried = mutants.slice(0, max);
    for (const mutant of tried) {
      const files = fixLines(mutant.patch).map((f) => f.file);
      const before = new Map(files.map((f) => [f, existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : null]));
      try {
        applyPatch(dir, mutant.patch);
        const alone = focused ? await runGate(sandbox, { command: focused, cwd: dir, timeoutMs, signal }) : null;
        if (alone && !alone.passed) continue;
        const whole = await runGate(sandbox, { command: bug.test, cwd: dir, timeoutMs, signal });
        if (!whole.passed) continue;
        plausible.push(mutant);
        log(`  ${bug.id}: passes the whole suite: ${mutant.origin} ${mutant.description} (${mutant.file}:${mutant.line})`);
      } finally {
        for (const [file, text] of before)
          if (text === null) rmSync(join(dir, file), { force: true });
          else writeFileSync(join(dir, file), text);
      }
    }
    return { plausible, failing, tried: tried.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const described = (m: Mutant) => ({
  hash: m.hash,
  origin: m.origin,
  file: m.file,
  line: m.line,
  kind: m.kind,
  description: m.description,
});

function verdictText(verdict: Extract<OracleVerdict, { verdict: 'agrees' }>): string {
  return `${verdict.suiteCalls} suite calls and ${verdict.generatedInputs} generated inputs`;
}

/** What became of the `tried` mutants, before any is judged. */
export function emptyOutcome(
  keptBy: Outcome['keptBy'],
  generated: number,
  found: { tried: number; plausible: Mutant[] },
): Outcome {
  return {
    keptBy,
    generated,
    tried: found.tried,
    plausible: found.plausible.length,
    kept: [],
    equivalent: [],
    notCompared: [],
    unjudged: [],
    written: [],
    failsSuite: [],
  };
}

/** Every mutant among the first `max` that passes the whole suite, unjudged (mutant-separate.ts judges them). */
export async function keepUnjudged(
  bug: RealBug,
  mutants: readonly Mutant[],
  max: number,
  log: (line: string) => void = console.log,
): Promise<Outcome | string> {
  const found = await plausibleMutants(bug, mutants, max, log);
  if (typeof found === 'string') return found;
  return { ...emptyOutcome('separation', mutants.length, found), unjudged: found.plausible.map(described) };
}

/** The bug's wrong-but-plausible mutants among the first `max`, and what became of the others. */
export async function keepMutants(
  bug: RealBug,
  mutants: readonly Mutant[],
  max: number,
  log: (line: string) => void = console.log,
): Promise<Outcome | string> {
  const found = await plausibleMutants(bug, mutants, max, log);
  if (typeof found === 'string') return found;
  const outcome = emptyOutcome('assessment', mutants.length, found);
  for (const mutant of found.plausible) {
    const verdict = await compareWithUpstream(bug, mutant.patch, found.failing);
    if (verdict.verdict === 'differs') {
      const separatedBy = verdict.disagreements.slice(0, SEPARATIONS_KEPT).map((d) => ({
        input: d.input,
        upstream: d.alternative,
        mutant: d.chosen,
        ...(d.atFailingTests ? { atFailingTests: true as const } : {}),
      }));
      const inputs = [...new Set(verdict.disagreements.map((d) => d.input))].slice(0, INPUTS_KEPT);
      outcome.kept.push({ ...described(mutant), disagreements: verdict.disagreements.length, separatedBy, inputs });
      log(
        `  ${bug.id}: kept ${mutant.hash}: ${separatedBy[0]?.input}: ${separatedBy[0]?.mutant} (mutant) vs ${separatedBy[0]?.upstream} (upstream)`,
      );
    } else if (verdict.verdict === 'agrees') {
      outcome.equivalent.push({ ...described(mutant), compared: verdictText(verdict) });
      log(`  ${bug.id}: equivalent ${mutant.hash} on ${verdictText(verdict)}`);
    } else {
      outcome.notCompared.push({ ...described(mutant), why: verdict.why });
      log(`  ${bug.id}: not compared ${mutant.hash}: ${verdict.why}`);
    }
  }
  return outcome;
}
