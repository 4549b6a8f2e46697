// The figures bench/assess-mutants.ts prints (issue 47's "Done when"), counted from measured rows.
import { describe, expect, it } from 'vitest';
import { figuresText, mutantFigures, type MutantRow } from '../../bench/lib/mutant-figures.ts';

const row = (over: Partial<MutantRow>): MutantRow => ({
  bug: 'demo-01',
  source: 'upstream',
  hash: 'h',
  correct: 'yes',
  status: 'tests_green',
  level: 'verified',
  reason: '',
  assessMs: 1000,
  runMs: 2000,
  commit: 'c',
  ...over,
});

describe('mutantFigures', () => {
  it('counts correct and wrong verified, the decisive input shown, the blind runs and the median time', () => {
    const figures = mutantFigures([
      row({ assessMs: 4000 }),
      row({ level: 'review', blind: 'saw no change', assessMs: 8000 }),
      row({ correct: 'no', level: 'verified', assessMs: 2000 }),
      row({ correct: 'no', level: 'review', separating: ['f(1)'], shownInputs: ['f(0)', 'f(1)'] }),
      row({ correct: 'no', level: 'review', separating: ['f(2)'], shownInputs: ['f(0)'], blind: 'could not look' }),
      row({ correct: 'no', status: 'failed', level: '–', assessMs: 0 }),
    ]);
    expect(figures).toEqual({
      correctVerified: [1, 2],
      wrongVerified: [1, 3],
      decisiveShown: [1, 2],
      blind: [2, 5],
      medianAssessMs: 2000,
    });
    expect(figuresText(figures)[0]).toBe('- correct fixes `verified`: 1 of 2 (50 %) (target ≥ 70 %)');
  });
});
