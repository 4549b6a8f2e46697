// Every plausible candidate of the repair engine for one project, not just the one it would pick:
// its candidates, generated and ranked as the engine does (real-candidates.ts), validated in rank
// order to exhaustion (the failing tests first, then the whole suite, as the engine validates them;
// offline), up to `max`. overfit.ts runs it on the real corpus, overfit-written.ts on the written one.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import type { RankedCandidate } from '../../src/engines/repair/rank-candidates.ts';
import { runGate } from '../../src/gate/run-gate.ts';
import { focusedTestCommand } from '../../src/runners/focused-test-command.ts';
import { candidateRunTimeout } from '../../src/core/candidate-run-timeout.ts';
import { fileDiff } from '../../src/workspace/unified-diff.ts';
import { realCandidates, type RealBaseline } from './real-candidates.ts';
import { packageScriptsNow } from '../../src/runners/package-scripts.ts';

export interface Plausible {
  /** The candidate's place in the engine's order, from 1. */
  rank: number;
  file: string;
  /** The line its edit is anchored on. */
  line: number;
  template: string;
  description: string;
  /** Against the pristine file, as the workspace's diff shows it. */
  patch: string;
}

export interface AllPlausible {
  plausible: Plausible[];
  validated: number;
  candidates: number;
  failing: TestCaseResult[];
}

export interface ValidateAllOptions {
  test: string;
  max: number;
  /** Copies of the checkout validating at once (the engine's parallel workers). */
  parallel: number;
  /** The test command's own bound; a candidate's run gets the engine's (a few times the baseline's time). */
  timeoutMs: number;
  /** Printed for each plausible candidate. */
  label: string;
}

/** A copy of a set-up checkout beside it (its node_modules links kept as they are). */
function copyOf(dir: string, index: number): string {
  const copy = `${dir}-worker-${index}`;
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}

function patchOf(candidate: RankedCandidate, before: string): string {
  return fileDiff({ path: candidate.file, before: Buffer.from(before), after: Buffer.from(candidate.result), mode: '100644' });
}

/**
 * Every candidate (of the first `max`) that passes the failing tests and then the whole suite, in
 * `dir` after its baseline; a string when there is nothing to validate. Copies made for `parallel`
 * are removed; `dir` is the caller's.
 */
export async function validateAll(
  dir: string,
  baseline: RealBaseline,
  options: ValidateAllOptions,
): Promise<AllPlausible | string> {
  const { sandbox, signal } = baseline;
  const failing = baseline.gate.report.tests.filter((t) => t.status === 'failed');
  if (failing.length === 0) return 'the baseline has no failing test';
  const { ranked, sources } = await realCandidates(dir, baseline, options.test);
  const focused = focusedTestCommand(options.test, failing, packageScriptsNow(dir));
  const timeoutMs = candidateRunTimeout(baseline.gate.durationMs, options.timeoutMs);
  const plausible: Plausible[] = [];
  const taken = ranked.slice(0, options.max);
  const copies: string[] = [];
  try {
    // One copy of the set-up checkout per worker, as the engine validates in parallel copies.
    for (let i = 1; i < options.parallel; i++) copies.push(copyOf(dir, i));
    let next = 0;
    const work = async (cwd: string) => {
      for (let index = next++; index < taken.length; index = next++) {
        const candidate = taken[index];
        if (!candidate) continue;
        const before = sources.get(candidate.file) ?? readFileSync(join(cwd, candidate.file), 'utf8');
        writeFileSync(join(cwd, candidate.file), candidate.result);
        try {
          const alone = focused ? await runGate(sandbox, { command: focused, cwd, timeoutMs, signal }) : null;
          if (alone && !alone.passed) continue;
          const whole = await runGate(sandbox, { command: options.test, cwd, timeoutMs, signal });
          if (!whole.passed) continue;
          plausible.push({
            rank: index + 1,
            file: candidate.file,
            line: candidate.line,
            template: candidate.template,
            description: candidate.description,
            patch: patchOf(candidate, before),
          });
          console.log(`  ${options.label}: candidate ${index + 1} passes: ${candidate.description}`);
        } finally {
          writeFileSync(join(cwd, candidate.file), before);
        }
      }
    };
    await Promise.all([dir, ...copies].map(work));
  } finally {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  }
  return { plausible: plausible.sort((a, b) => a.rank - b.rank), validated: taken.length, candidates: ranked.length, failing };
}
