// vitest's default reporter (non-TTY). Files with failures are expanded into a tree:
//    ❯ src/m.test.js (5 tests | 2 failed | 1 skipped) 19ms
//      ❯ math (4)
//        × adds 14ms
//        ✓ subtracts fine 1ms
//        ↓ skipped one
//  then one block per failure: ` FAIL  src/m.test.js > math > adds`, the error, and ` ❯ file:line:col` frames;
//  and the summary: `      Tests  2 failed | 2 passed | 1 skipped (5)`.
import type { TestCaseResult, TestReport } from '../../core/test-report.ts';
import { buildReport, countsFrom, splitMessage } from '../../formats/report-builder.ts';
import { attachValues } from '../assertion-values.ts';
import { vitestValues } from './parse-vitest-values.ts';

const SUMMARY = /^\s*Tests\s+(.+)\((\d+)\)\s*$/;
const FILE = /^ (❯|✓|×) (\S+\.\w+) \((\d+) tests?[^)]*\)/;
// A test retried says so after its time: `✓ flaky 94ms (retry x1)`.
const NODE = /^( +)(❯|✓|×|↓|✗|√) (.+?)( \(\d+\))?(?: (\d+)ms)?(?: \(retry x\d+\))?(?: \[skipped\])?$/;
const FAIL_HEADER = /^ FAIL {1,2}(\S+\.\w+) > (.+)$/;
const SEPARATOR = /^⎯{3,}/;

export function parseVitest(text: string): TestReport | null {
  const lines = text.split('\n');
  const summaryLine = lines.map((l) => SUMMARY.exec(l)).find((m) => m);
  if (!summaryLine?.[1] || !/\b(passed|failed|skipped)\b/.test(summaryLine[1]) || !lines.some((l) => /^\s*Test Files\s/.test(l)))
    return null;
  const counts = countsFrom(summaryLine[1]);

  const tests: TestCaseResult[] = [];
  let file: string | null = null;
  const stack: { name: string; indent: number }[] = [];
  for (const [index, line] of lines.entries()) {
    if (SEPARATOR.test(line) || FAIL_HEADER.test(line)) break;
    const f = FILE.exec(line);
    if (f?.[2]) {
      file = f[2];
      stack.length = 0;
      continue;
    }
    const n = NODE.exec(line);
    if (!file || !n?.[1] || !n[2] || !n[3]) continue;
    const indent = n[1].length;
    while (stack.length && (stack.at(-1)?.indent ?? 0) >= indent) stack.pop();
    // A suite line (❯ name (n)) opens a level; its tests are indented below it. vitest 5 marks a suite
    // that passed as it marks a test (✓ name (n)), with its count and its tests below it.
    if (n[2] === '❯' || (n[4] && !n[5] && indentOf(lines[index + 1] ?? '') > indent)) {
      stack.push({ name: n[3], indent });
      continue;
    }
    const status = n[2] === '↓' ? 'skipped' : n[2] === '✓' || n[2] === '√' ? 'passed' : 'failed';
    // vitest 3 prints a test without its suite lines, its suites before its name: `parseURL > //test`.
    const name = n[3].split(' > ').at(-1) ?? n[3];
    const test: TestCaseResult = { id: [file, ...stack.map((s) => s.name), n[3]].join(' > '), name, file, status };
    if (n[5]) test.durationMs = Number(n[5]);
    tests.push(test);
  }
  attachFailures(lines, tests);
  return buildReport('vitest', tests, counts);
}

function indentOf(line: string): number {
  return /^ */.exec(line)?.[0].length ?? 0;
}

function attachFailures(lines: string[], tests: TestCaseResult[]): void {
  for (let i = 0; i < lines.length; i++) {
    const header = FAIL_HEADER.exec(lines[i] ?? '');
    if (!header?.[1] || !header[2]) continue;
    const block: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !SEPARATOR.test(lines[j] ?? '') && !FAIL_HEADER.test(lines[j] ?? ''); j++)
      block.push(lines[j] ?? '');
    const id = `${header[1]} > ${header[2]}`;
    const name = header[2].split(' > ').at(-1) ?? header[2];
    // vitest 4's tree shows a failed test under its file without the suites around it: the same test.
    let test =
      tests.find((t) => t.id === id) ??
      tests.find((t) => t.file === header[1] && t.name === name && t.status === 'failed' && t.message === undefined);
    if (test) test.id = id;
    else {
      // The tree was not printed (e.g. a TTY-less summary only): the failure block still names the test.
      test = { id, name, file: header[1], status: 'failed' };
      tests.push(test);
    }
    const { message, stack } = splitMessage(block.join('\n'));
    test.message = message;
    test.stack = stack;
    attachValues(test, vitestValues(message));
    i = j - 1;
  }
}
