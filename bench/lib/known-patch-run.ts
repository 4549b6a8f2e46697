// A known patch of a real bug through the product's own path: applied by the `script` engine in a
// real `fixloop run` (setup, baseline, gate, pristine replay, second observation, assessment), so
// what is measured is what any engine's patch would meet. assess-known.ts runs the upstream fixes
// and the engine's kept patches this way; overfit.ts every plausible candidate it found.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Assessment } from '../../src/core/assessment.ts';
import { judgeCorrect, type Correctness } from './real-judge.ts';
import { materializeReal, patchHash, type RealBug } from './real-corpus.ts';
import { materialize, printedResult, timed } from './workdir.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cacheDir = process.env.FIXLOOP_CACHE_DIR ?? join(tmpdir(), 'fixloop-real-cache', 'fixloop');
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();

export interface Measured {
  bug: string;
  /** Where the patch came from: the upstream fix, the engine's kept patch, or a candidate found by overfit.ts (`candidate #<rank>`). */
  source: string;
  hash: string;
  correct: Correctness;
  status: string;
  level: string;
  reason: string;
  assessMs: number;
  runMs: number;
  commit: string;
  /** The first changes outside the failing tests, as `input: before → after`. */
  examples?: string[];
  /** Changes on the failing tests' inputs or near them: where the probe saw the patch at work. */
  nearFailing?: number;
  /** The assessment's own search for rivals, when it looked (no alternative from the engine, nothing else against `verified`). */
  rivalSearch?: { candidates: number; tried: number; passedFailing: number; stopped?: string };
  /** The other plausible patches compared, and how many inputs each disagrees on. */
  alternatives?: string[];
  /** Every input the run's result lists: its behaviour changes' and its rivals' disagreements (assess-mutants.ts looks for a separating one). */
  shownInputs?: string[];
  /** The assessment could not look (`notAssessed`), or its probes saw no change at all. */
  blind?: 'could not look' | 'saw no change';
}

export async function runKnownPatch(bug: RealBug, source: string, patch: string): Promise<Measured> {
  const seen = await runPatchThroughProduct(materializeReal(bug, 'assess'), bug.test, patch, bug.setup);
  return {
    bug: bug.id,
    source,
    hash: patchHash(patch),
    correct: source === 'upstream' ? 'yes' : judgeCorrect(bug, patch),
    ...seen,
    commit,
  };
}

/** What the product makes of a patch: the run's status and level, and the changes it names. */
export type ProductView = Pick<
  Measured,
  | 'status'
  | 'level'
  | 'reason'
  | 'assessMs'
  | 'examples'
  | 'nearFailing'
  | 'runMs'
  | 'rivalSearch'
  | 'alternatives'
  | 'shownInputs'
  | 'blind'
>;

/** Why an assessment did not see the patch at work, if it did not. */
function blindness(assessment: Assessment | undefined): ProductView['blind'] {
  if (!assessment) return undefined;
  if (assessment.notAssessed) return 'could not look';
  const disagreed = assessment.alternatives.some((a) => a.disagreements.length > 0);
  return assessment.counts.changes === 0 && !disagreed && assessment.level === 'review' ? 'saw no change' : undefined;
}

/**
 * The whole assessment, kept where FIXLOOP_BENCH_ASSESSMENTS names a folder (`<patch hash>.json`):
 * the row says the level and the reason's start, and reading why a patch ended there needs the rest.
 */
function keepAssessment(patch: string, assessment: Assessment | undefined): void {
  const dir = process.env.FIXLOOP_BENCH_ASSESSMENTS;
  if (!dir || !assessment) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${patchHash(patch)}.json`), `${JSON.stringify(assessment, null, 2)}\n`);
}

/** `patch` through a real `fixloop run` on the project in `project` (removed afterwards). */
export async function runPatchThroughProduct(project: string, test: string, patch: string, setup?: string): Promise<ProductView> {
  const out = materialize({}, 'assess-out');
  try {
    // The script engine applies the patch in the workspace, as any engine's edit.
    // The patch as it is: its last line may be the context line of an empty line (a single space),
    // which trimming would cut, and git would then call the patch corrupt (js-yaml-03's candidate #174).
    const script = `git apply --whitespace=nowarn - <<'FIXLOOP_PATCH_END'\n${patch.endsWith('\n') ? patch : `${patch}\n`}FIXLOOP_PATCH_END`;
    const command = [
      join(root, 'bin/fixloop.js'),
      'run',
      project,
      '--test',
      test,
      '--engine',
      'script',
      '--script',
      script,
      '--max-attempts',
      '1',
      '--json',
      '--out',
      join(out, 'artifacts'),
    ];
    if (setup) command.push('--setup', setup);
    const run = await timed(process.execPath, command, out, 1_800_000, { FIXLOOP_CACHE_DIR: cacheDir });
    const result = printedResult(run.stdout);
    const blind = blindness(result?.assessment);
    keepAssessment(patch, result?.assessment);
    return {
      status: result?.status ?? `crashed (exit ${run.code})`,
      level: result?.assessment?.level ?? '–',
      reason: (result?.assessment?.reason ?? result?.headline ?? run.stderr.trim().split('\n').at(-1) ?? '')
        .replace(/\s+/g, ' ')
        .slice(0, 220),
      assessMs: result?.assessment?.budget.usedMs ?? 0,
      examples: (result?.assessment?.behaviourChanges ?? [])
        .filter((c) => !c.nearFailing)
        .slice(0, 3)
        .map((c) => `${c.input}: ${c.before} → ${c.after}`.slice(0, 160)),
      nearFailing: result?.assessment?.counts.nearFailing ?? 0,
      runMs: result?.durationMs ?? run.ms,
      ...(result?.assessment?.rivalSearch ? { rivalSearch: result.assessment.rivalSearch } : {}),
      alternatives: (result?.assessment?.alternatives ?? []).map((a) => `${a.summary}: ${a.disagreements.length} disagreements`),
      shownInputs: [
        ...new Set([
          ...(result?.assessment?.behaviourChanges ?? []).map((c) => c.input),
          ...(result?.assessment?.alternatives ?? []).flatMap((a) => a.disagreements.map((d) => d.input)),
        ]),
      ],
      ...(blind ? { blind } : {}),
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}
