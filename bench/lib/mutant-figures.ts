// The figures of issue 47's "Done when", from the upstream fixes and kept mutants measured through
// the product (bench/assess-mutants.ts): correct fixes `verified`, wrong patches `verified`, wrong
// patches at `review` whose report lists an input that separates them from the upstream fix, runs
// that could not look or saw no change, and the median assessment time.
import type { Measured } from './known-patch-run.ts';
import { median } from './stats.ts';

export interface MutantRow extends Measured {
  /** Set for a mutant: the inputs on which it and the upstream fix differ (mutants.json). */
  separating?: string[];
}

export interface Figures {
  correctVerified: [number, number];
  wrongVerified: [number, number];
  decisiveShown: [number, number];
  blind: [number, number];
  medianAssessMs: number | null;
}

/** Whether the run's report lists an input on which the patch and the upstream fix differ. */
export function decisiveShown(row: MutantRow): boolean {
  const separating = new Set(row.separating ?? []);
  return (row.shownInputs ?? []).some((input) => separating.has(input));
}

export function mutantFigures(rows: readonly MutantRow[]): Figures {
  const green = rows.filter((r) => r.status === 'tests_green');
  const correct = green.filter((r) => r.correct === 'yes');
  const wrong = green.filter((r) => r.correct === 'no');
  const wrongReview = wrong.filter((r) => r.level === 'review');
  return {
    correctVerified: [correct.filter((r) => r.level === 'verified').length, correct.length],
    wrongVerified: [wrong.filter((r) => r.level === 'verified').length, wrong.length],
    decisiveShown: [wrongReview.filter(decisiveShown).length, wrongReview.length],
    blind: [green.filter((r) => r.blind).length, green.length],
    medianAssessMs: median(green.map((r) => r.assessMs)),
  };
}

const pct = ([n, d]: [number, number]) => (d === 0 ? '–' : `${n} of ${d} (${Math.round((100 * n) / d)} %)`);

/** The figures as the issue's targets read them, one line each. */
export function figuresText(f: Figures): string[] {
  return [
    `- correct fixes \`verified\`: ${pct(f.correctVerified)} (target ≥ 70 %)`,
    `- wrong patches \`verified\`: ${pct(f.wrongVerified)} (target ≤ 2 %)`,
    `- wrong patches at \`review\` whose report lists an input that separates them from the upstream fix: ${pct(f.decisiveShown)} (target ≥ 80 %)`,
    `- runs that could not look or saw no change: ${pct(f.blind)} (target ≤ 10 %)`,
    `- median assessment time: ${f.medianAssessMs === null ? '–' : `${(f.medianAssessMs / 1000).toFixed(1)} s`} (target ≤ 30 s)`,
  ];
}
