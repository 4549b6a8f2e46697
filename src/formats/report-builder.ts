// Builds a TestReport from parsed test cases, keeping ids unique and counts consistent.
import type { TestCaseResult, TestReport, TestReportFormat } from '../core/test-report.ts';

export interface SummaryCounts {
  passed: number;
  failed: number;
  skipped: number;
}

export function buildReport(format: TestReportFormat, tests: TestCaseResult[], summary?: SummaryCounts): TestReport {
  const seen = new Map<string, number>();
  const unique = tests.map((t) => {
    const n = (seen.get(t.id) ?? 0) + 1;
    seen.set(t.id, n);
    return n === 1 ? t : { ...t, id: `${t.id} #${n}` };
  });
  const count = (s: TestCaseResult['status']) => unique.filter((t) => t.status === s).length;
  // The runner's own summary wins when it lists more than it printed individually (e.g. pytest -q).
  const passed = Math.max(summary?.passed ?? 0, count('passed'));
  const failed = Math.max(summary?.failed ?? 0, count('failed'));
  const skipped = Math.max(summary?.skipped ?? 0, count('skipped'));
  return { format, parsed: true, passed, failed, skipped, total: passed + failed + skipped, tests: unique };
}

/** Splits an error block into its message (text before the first stack frame) and the whole text as stack. */
export function splitMessage(block: string): { message: string; stack: string } {
  const lines = block.replace(/\s+$/, '').split('\n');
  const firstFrame = lines.findIndex((l) => /^\s*(at |❯ |File ")|^\S+\.\w+:\d+:/.test(l));
  const messageLines = (firstFrame === -1 ? lines : lines.slice(0, firstFrame)).filter((l) => l.trim().length > 0);
  return {
    message: messageLines
      .slice(0, 12)
      .map((l) => l.trim())
      .join('\n'),
    stack: block.replace(/\s+$/, ''),
  };
}

export function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)?.[0].length ?? 0);
  const min = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(min));
}

const PASSED = new Set(['passed', 'passing', 'xpassed']);
const FAILED = new Set(['failed', 'failing', 'error', 'errors']);
const SKIPPED = new Set(['skipped', 'pending', 'todo', 'xfailed']);

/** Counts from a runner's summary such as `2 failed | 5 passed (7)` or `1 failed, 1 skipped, 3 passed, 5 total`. */
export function countsFrom(summary: string): SummaryCounts {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const m of summary.matchAll(/(\d+)\s+([a-z]+)/g)) {
    const n = Number(m[1]);
    const word = m[2] ?? '';
    if (PASSED.has(word)) counts.passed += n;
    else if (FAILED.has(word)) counts.failed += n;
    else if (SKIPPED.has(word)) counts.skipped += n;
  }
  return counts;
}
