// Spectrum-based fault localization: a line covered by many failing tests and few passing ones is
// suspicious. Ochiai(s) = failed(s) / sqrt(totalFailed × (failed(s) + passed(s))).

export interface TestSpectrum {
  id: string;
  failed: boolean;
  /** Executed lines per repository-relative file. */
  lines: Map<string, Set<number>>;
}

/** Ochiai score of every line covered by at least one failing test, keyed `file:line`. */
export function ochiai(spectra: readonly TestSpectrum[]): Map<string, { file: string; line: number; score: number }> {
  const totalFailed = spectra.filter((t) => t.failed).length;
  const counts = new Map<string, { file: string; line: number; failed: number; passed: number }>();
  for (const test of spectra) {
    for (const [file, lines] of test.lines) {
      for (const line of lines) {
        const key = `${file}:${line}`;
        const entry = counts.get(key) ?? { file, line, failed: 0, passed: 0 };
        if (test.failed) entry.failed++;
        else entry.passed++;
        counts.set(key, entry);
      }
    }
  }
  const scores = new Map<string, { file: string; line: number; score: number }>();
  if (totalFailed === 0) return scores;
  for (const [key, c] of counts) {
    if (c.failed === 0) continue;
    scores.set(key, { file: c.file, line: c.line, score: c.failed / Math.sqrt(totalFailed * (c.failed + c.passed)) });
  }
  return scores;
}
