// mocha's `spec` reporter: indented suites, `✔ name (5ms)` / `1) name` lines, `N passing`, `N failing`,
// `N pending`, then numbered failure blocks `1) Suite\n     name:\n     Error: ...`.
import type { TestCaseResult, TestReport } from '../../core/test-report.ts';
import { buildReport, dedent, splitMessage } from '../../formats/report-builder.ts';
import { attachValues } from '../assertion-values.ts';
import { mochaValues } from './parse-mocha-values.ts';

const PASSING = /^\s*(\d+) passing\b/;
const FAILING = /^\s*(\d+) failing\b/;
const PENDING = /^\s*(\d+) pending\b/;

export function parseMocha(text: string): TestReport | null {
  const lines = text.split('\n');
  const passing = lines.map((l) => PASSING.exec(l)).find((m) => m);
  if (!passing?.[1]) return null;
  const failing = Number(lines.map((l) => FAILING.exec(l)).find((m) => m)?.[1] ?? 0);
  const pending = Number(lines.map((l) => PENDING.exec(l)).find((m) => m)?.[1] ?? 0);
  const end = lines.findIndex((l) => PASSING.test(l));
  const tests: TestCaseResult[] = [];
  const failedByNumber = new Map<string, TestCaseResult>();
  const suites: { indent: number; name: string }[] = [];
  for (const line of lines.slice(0, end)) {
    const m = /^( +)(?:(✔|✓)|(\d+)\)|-) ?(.+?)(?: \(\d+ms\))?$/.exec(line);
    const indent = /^ */.exec(line)?.[0].length ?? 0;
    if (!line.trim()) continue;
    while (suites.length && (suites.at(-1)?.indent ?? 0) >= indent) suites.pop();
    // The spec reporter indents everything it prints; a line at the margin is someone else's (npm's
    // `> mocha --grep …` banner), and taking it for a suite would make a test's id depend on the command.
    if (indent === 0) continue;
    if (m?.[4] && (m[2] || m[3] || line.trim().startsWith('- '))) {
      const status = m[2] ? 'passed' : m[3] ? 'failed' : 'skipped';
      const test: TestCaseResult = { id: [...suites.map((s) => s.name), m[4]].join(' > '), name: m[4], status };
      tests.push(test);
      if (m[3]) failedByNumber.set(m[3], test);
    } else {
      suites.push({ indent, name: line.trim() });
    }
  }
  for (let i = end; i < lines.length; i++) {
    const head = /^ {2}(\d+)\) /.exec(lines[i] ?? '');
    if (!head?.[1]) continue;
    const block: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^ {2}\d+\) /.test(lines[j] ?? ''); j++) block.push(lines[j] ?? '');
    const test = failedByNumber.get(head[1]);
    if (test) {
      // The heading repeats the suite path and ends with the test's title and a colon.
      const body = dedent(block)
        .join('\n')
        .replace(/^[\s\S]*?:\n/, '');
      const { message, stack } = splitMessage(dedent(body.split('\n')).join('\n'));
      test.message = message;
      test.stack = stack;
      attachValues(test, mochaValues(message));
    }
    i = j - 1;
  }
  return buildReport('mocha', tests, { passed: Number(passing[1]), failed: failing, skipped: pending });
}
