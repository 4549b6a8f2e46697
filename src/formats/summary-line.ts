// Last resort: a well-known closing line gives counts without per-test details,
// e.g. `12 passed, 1 failed`, `tests: 3 passed, 0 failed, 1 skipped`, `Tests: 2 failed, 5 passed, 7 total`.
import type { TestReport } from '../core/test-report.ts';

export function parseSummaryLine(text: string): TestReport | null {
  const lines = text.split('\n').reverse();
  for (const line of lines) {
    const passed = /(\d+) (?:passed|passing)\b/.exec(line);
    const failed = /(\d+) (?:failed|failing)\b/.exec(line);
    if (!passed && !failed) continue;
    const skipped = /(\d+) (?:skipped|pending)\b/.exec(line);
    const p = Number(passed?.[1] ?? 0);
    const f = Number(failed?.[1] ?? 0);
    const s = Number(skipped?.[1] ?? 0);
    return { format: 'unknown', parsed: true, passed: p, failed: f, skipped: s, total: p + f + s, tests: [] };
  }
  return null;
}
