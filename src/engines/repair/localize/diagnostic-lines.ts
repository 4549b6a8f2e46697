// In a check run, the failing items are the checks' diagnostics (src/gate/check-gate.ts), each at the
// place its tool names: those places are the suspicious lines, all alike, with no coverage to run
// (a lint rule's line is where the fix goes, not a guess).
import type { TestCaseResult } from '../../../core/test-report.ts';
import type { SuspiciousLine } from '../candidate.ts';

const PLACE = /^\s*at (.+):(\d+):(\d+)\s*$/;

export function diagnosticLines(
  failing: readonly TestCaseResult[],
  files: readonly string[],
  isTestFile: (path: string) => boolean,
): SuspiciousLine[] {
  const known = new Set(files);
  const seen = new Set<string>();
  const lines: SuspiciousLine[] = [];
  for (const item of failing) {
    const place = PLACE.exec(item.stack ?? '');
    const file = place?.[1];
    if (!file || !known.has(file) || isTestFile(file)) continue;
    const line = Number(place[2]);
    if (seen.has(`${file}:${line}`)) continue;
    seen.add(`${file}:${line}`);
    lines.push({ file, line, score: 1, signals: ['diagnostic'] });
  }
  return lines;
}
