// Turns a test command's output into per-test results, trying the most specific formats first.
import { emptyReport, type TestReport } from '../core/test-report.ts';
import { parseJest } from './parsers/jest.ts';
import { parseJunit } from './parsers/junit.ts';
import { parseMocha } from './parsers/mocha.ts';
import { parseNodeTest } from './parsers/node-test.ts';
import { parsePytest } from './parsers/pytest.ts';
import { stripAnsi } from './parsers/strip-ansi.ts';
import { parseSummaryLine } from './parsers/summary-line.ts';
import { parseTap } from './parsers/tap.ts';
import { parseVitest } from './parsers/vitest.ts';

const PARSERS: ((text: string) => TestReport | null)[] = [parseVitest, parsePytest, parseNodeTest, parseJest, parseMocha, parseTap, parseJunit];

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
