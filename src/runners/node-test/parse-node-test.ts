// node's test runner, default `spec` reporter (what `node --test` prints when stdout is not a TTY):
//   ▶ suite
//     ✔ passes (0.5ms)
//     ✖ fails (1.2ms)
//     ﹣ skipped (0.1ms) # SKIP
//   ✖ suite (2ms)            <- the suite's own result line closes it
//   ℹ tests 5 / ℹ pass 2 / ℹ fail 2 / ℹ skipped 1
//   ✖ failing tests:
//   test at test/m.test.js:5:3
//   ✖ fails (1.2ms)
//     AssertionError ...      <- the error, indented
import type { TestCaseResult, TestReport } from '../../core/test-report.ts';
import { buildReport, dedent, splitMessage } from '../../formats/report-builder.ts';
import { attachValues } from '../assertion-values.ts';
import { nodeTestValues } from './parse-node-test-values.ts';

const RESULT = /^( *)(✔|✖|﹣|ℹ️?|⚠) (.+?)(?: \((\d+(?:\.\d+)?)ms\))?( # (?:SKIP|TODO)\b.*)?$/;
const SUITE = /^( *)▶ (.+)$/;
const SUMMARY = /^ℹ (tests|pass|fail|skipped|todo|cancelled) (\d+)$/;

export function parseNodeTest(text: string): TestReport | null {
  const lines = text.split('\n');
  const summary = new Map<string, number>();
  for (const line of lines) {
    const m = SUMMARY.exec(line.trim());
    if (m?.[1] && m[2]) summary.set(m[1], Number(m[2]));
  }
  if (!summary.has('tests') || !summary.has('pass')) return null;

  const failuresAt = lines.findIndex((l) => /^✖ failing tests:\s*$/.test(l));
  const body = failuresAt === -1 ? lines : lines.slice(0, failuresAt);
  const tests: TestCaseResult[] = [];
  const stack: { name: string; indent: number }[] = [];
  for (const line of body) {
    const suite = SUITE.exec(line);
    if (suite?.[1] !== undefined && suite[2]) {
      while (stack.length && (stack.at(-1)?.indent ?? 0) >= suite[1].length) stack.pop();
      stack.push({ name: suite[2], indent: suite[1].length });
      continue;
    }
    const result = RESULT.exec(line);
    if (!result || result[1] === undefined || !result[2] || !result[3]) continue;
    const indent = result[1].length;
    const name = result[3];
    if (result[2].startsWith('ℹ') || result[2] === '⚠') continue;
    const top = stack.at(-1);
    if (top && top.indent === indent && top.name === name) {
      stack.pop(); // the suite's own result line
      continue;
    }
    while (stack.length && (stack.at(-1)?.indent ?? 0) >= indent) stack.pop();
    const path = [...stack.map((s) => s.name), name];
    const status = result[5] || result[2] === '﹣' ? 'skipped' : result[2] === '✔' ? 'passed' : 'failed';
    const test: TestCaseResult = { id: path.join(' > '), name, status };
    if (result[4]) test.durationMs = Number(result[4]);
    tests.push(test);
  }
  if (failuresAt !== -1) attachFailures(lines.slice(failuresAt + 1), tests);
  return buildReport('node-test', tests, {
    passed: summary.get('pass') ?? 0,
    failed: (summary.get('fail') ?? 0) + (summary.get('cancelled') ?? 0),
    skipped: (summary.get('skipped') ?? 0) + (summary.get('todo') ?? 0),
  });
}

/** The "failing tests" section: `test at <file>:<line>:<col>`, the ✖ line, then the indented error. */
function attachFailures(lines: string[], tests: TestCaseResult[]): void {
  const used = new Set<TestCaseResult>();
  for (let i = 0; i < lines.length; i++) {
    const at = /^test at (.+?):\d+:\d+$/.exec(lines[i] ?? '');
    const head = RESULT.exec(lines[i + 1] ?? '');
    if (!at || !head?.[3]) continue;
    const block: string[] = [];
    let j = i + 2;
    for (; j < lines.length && !/^test at /.test(lines[j] ?? ''); j++) block.push(lines[j] ?? '');
    const test = tests.find((t) => !used.has(t) && t.status === 'failed' && t.name === head[3]);
    if (test) {
      used.add(test);
      test.file = at[1] ?? '';
      const { message, stack } = splitMessage(dedent(block).join('\n'));
      test.message = message;
      test.stack = stack;
      attachValues(test, nodeTestValues(message, stack));
    }
    i = j - 1;
  }
}
