// jest's default reporter:
//   PASS src/a.test.js / FAIL src/b.test.js, then (verbose, or for failing files) `✓ name (3 ms)` / `✕ name` lines,
//   `● Suite › name` failure blocks, and `Tests:       1 failed, 1 skipped, 3 passed, 5 total`.
import type { TestCaseResult, TestReport } from '../../core/test-report.ts';
import { buildReport, countsFrom, dedent, splitMessage } from '../../formats/report-builder.ts';
import { attachValues } from '../assertion-values.ts';
import { jestValues } from './parse-jest-values.ts';

const SUMMARY = /^Tests:\s+(.+?),\s*(\d+) total\s*$/;
const FILE = /^(PASS|FAIL) (\S+)/;
const CASE = /^( +)(✓|✕|○|√|×) (?:skipped )?(.+?)(?: \(\d+(?:\.\d+)? ?m?s\))?$/;
const BLOCK = /^ {2}● (.+)$/;

export function parseJest(text: string): TestReport | null {
  const lines = text.split('\n');
  const summary = lines.map((l) => SUMMARY.exec(l.trim())).find((m) => m);
  if (!summary?.[1]) return null;
  const counts = countsFrom(summary[1]);
  const tests: TestCaseResult[] = [];
  let file: string | null = null;
  const suites: { indent: number; name: string }[] = [];
  for (const line of lines) {
    if (BLOCK.test(line)) break;
    const f = FILE.exec(line);
    if (f?.[2]) {
      file = f[2];
      suites.length = 0;
      continue;
    }
    if (!file) continue;
    const c = CASE.exec(line);
    if (c?.[1] && c[2] && c[3]) {
      while (suites.length && (suites.at(-1)?.indent ?? 0) >= c[1].length) suites.pop();
      const status = c[2] === '○' ? 'skipped' : c[2] === '✓' || c[2] === '√' ? 'passed' : 'failed';
      tests.push({ id: [file, ...suites.map((s) => s.name), c[3]].join(' › '), name: c[3], file, status });
      continue;
    }
    const suite = /^( +)(\S.*)$/.exec(line);
    if (suite?.[1] && suite[2] && !/^(Tests|Test Suites|Snapshots|Time):/.test(suite[2])) {
      while (suites.length && (suites.at(-1)?.indent ?? 0) >= suite[1].length) suites.pop();
      suites.push({ indent: suite[1].length, name: suite[2].trim() });
    }
  }
  // Failure blocks, each under its file's FAIL line. With many files jest prints them all again after
  // "Summary of all failing tests": that copy is not more failures.
  let blockFile: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^Summary of all failing tests\s*$/.test(line)) break;
    const f = FILE.exec(line);
    if (f?.[2]) blockFile = f[2];
    const b = BLOCK.exec(line);
    if (!b?.[1]) continue;
    const block: string[] = [];
    let j = i + 1;
    for (
      ;
      j < lines.length &&
      !BLOCK.test(lines[j] ?? '') &&
      !/^(PASS|FAIL|Test Suites:|Tests:|Summary of all failing tests)/.test(lines[j] ?? '');
      j++
    )
      block.push(lines[j] ?? '');
    const title = b[1];
    const inFile = (t: TestCaseResult) => blockFile === null || t.file === blockFile;
    const test =
      tests.find((t) => t.status === 'failed' && !t.stack && inFile(t) && t.id.endsWith(title)) ??
      tests.find((t) => t.status === 'failed' && !t.stack && inFile(t) && title.endsWith(t.name));
    const { message, stack } = splitMessage(dedent(block).join('\n'));
    const where = blockFile ?? file;
    if (test) {
      test.message = message;
      test.stack = stack;
      attachValues(test, jestValues(message));
    } else if (where && !tests.some((t) => t.id === `${where} › ${title}`)) {
      const added: TestCaseResult = {
        id: `${where} › ${title}`,
        name: title.split(' › ').at(-1) ?? title,
        file: where,
        status: 'failed',
        message,
        stack,
      };
      attachValues(added, jestValues(message));
      tests.push(added);
    }
    i = j - 1;
  }
  return buildReport('jest', tests, counts);
}
