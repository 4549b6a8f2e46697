// Turns a test command's output into per-test results, trying the most specific formats first: each
// runner's own output (the registry's order), then the shared formats TAP and JUnit XML, then a
// well-known closing line.
import { emptyReport, type TestReport } from '../core/test-report.ts';
import { parseJunit } from '../formats/junit.ts';
import { stripAnsi } from '../formats/strip-ansi.ts';
import { parseSummaryLine } from '../formats/summary-line.ts';
import { parseTap } from '../formats/tap.ts';
import { RUNNERS } from '../runners/registry.ts';

const PARSERS: ((text: string) => TestReport | null)[] = [...RUNNERS.map((r) => r.output.parse), parseTap, parseJunit];

export function parseTestOutput(output: string): TestReport {
  const text = stripAnsi(output);
  for (const parse of PARSERS) {
    try {
      const report = parse(text);
      if (report && report.total > 0) return report;
    } catch {
      // A parser that trips on unexpected text just does not apply.
    }
  }
  return parseSummaryLine(text) ?? emptyReport();
}
