// pytest: per-test lines of `-v` (`tests/t.py::test_a PASSED`), `-rA` summary lines
// (`PASSED tests/t.py::test_a`, `FAILED tests/t.py::test_b - AssertionError...`), the FAILURES
// section (`____ test_b ____` blocks with the traceback), and the closing line
// (`==== 3 failed, 2 passed, 1 skipped in 1.64s ====`, or without the `=` under -q). Subtests (pytest
// 9's, pytest-subtests'): each is a test of its own (subtest-id.ts), named by pytest 9's summary line
// (`SUBFAILED(i=1) tests/t.py::TestC::test_a - ...`); its "N subtests passed" are passed tests, as the
// runtime guard counts them (guard/_cases.py).
import type { TestCaseResult, TestReport, TestStatus } from '../../core/test-report.ts';
import { buildReport, countsFrom } from '../../formats/report-builder.ts';
import { attachValues } from '../assertion-values.ts';
import { pytestValues } from './parse-pytest-values.ts';
import { subtestId } from './subtest-id.ts';

const CLOSING =
  /^=*\s*((?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|errors?|warnings?|subtests passed)(?:, )?)+) in [\d.]+s(?: \([^)]*\))?\s*=*$/;
const VERBOSE = /^(\S+::\S.*?) (PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)\b/;
const SHORT = /^(PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS) (\S+::[^\s]+(?:\[[^\]]*\])?)(?: - (.*))?$/;
const SECTION = /^_{3,} (.+?) _{3,}$/;
// pytest 9's word glued to the subtest's description (`SUBFAILED[msg] (i=1)`); pytest-subtests prints
// none (`SUBFAIL tests/t.py::test_a`), which names no subtest.
const SUBTEST = /^SUB(PASSED|FAILED|SKIPPED|XFAIL)(\[.*?\](?: \(.*?\))?|\(.*?\)) (\S+::[^\s]+(?:\[[^\]]*\])?)(?: - (.*))?$/;

function statusOf(word: string): TestStatus {
  if (word === 'PASSED' || word === 'XPASS') return 'passed';
  if (word === 'SKIPPED' || word === 'XFAIL') return 'skipped';
  return 'failed';
}

export function parsePytest(text: string): TestReport | null {
  const lines = text.split('\n');
  const closing = lines.map((l) => CLOSING.exec(l.trim())).findLast((m) => m);
  if (!closing?.[1]) return null;
  const counts = countsFrom(closing[1]);
  counts.passed += Number(/(\d+) subtests passed/.exec(closing[1])?.[1] ?? 0);

  const byId = new Map<string, TestCaseResult>();
  const upsert = (id: string, status: TestStatus, message?: string) => {
    const existing = byId.get(id);
    const test: TestCaseResult = existing ?? { id, name: id.split('::').at(-1) ?? id, file: id.split('::')[0] ?? id, status };
    test.status = status;
    if (message) test.message = message;
    byId.set(id, test);
  };
  for (const line of lines) {
    const v = VERBOSE.exec(line);
    if (v?.[1] && v[2]) upsert(v[1], statusOf(v[2]));
    const s = SHORT.exec(line);
    if (s?.[1] && s[2]) upsert(s[2], statusOf(s[1]), s[3]);
    const sub = SUBTEST.exec(line);
    if (sub?.[1] && sub[2] && sub[3]) upsert(subtestId(sub[3], sub[2]), statusOf(sub[1]), sub[4]);
  }
  const tests = [...byId.values()];
  attachTracebacks(lines, tests);
  return buildReport('pytest', tests, counts);
}

/** The FAILURES section: `____ TestClass.test_name[param] ____` then the traceback up to the next header. */
function attachTracebacks(lines: string[], tests: TestCaseResult[]): void {
  const start = lines.findIndex((l) => /^=+ (FAILURES|ERRORS) =+$/.test(l));
  if (start === -1) return;
  for (let i = start + 1; i < lines.length; i++) {
    const header = SECTION.exec(lines[i] ?? '');
    if (!header?.[1]) continue;
    const block: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !SECTION.exec(lines[j] ?? '') && !/^=+ .* =+$/.test(lines[j] ?? ''); j++)
      block.push(lines[j] ?? '');
    const headline = header[1].replace(/^ERROR (at|collecting) /, '');
    const test = tests.find((t) => t.status === 'failed' && !t.stack && t.id.split('::').slice(1).join('.') === headline);
    if (test) {
      test.stack = block.join('\n').trim();
      const errorLines = block.filter((l) => l.startsWith('E ')).map((l) => l.slice(1).trim());
      if (errorLines.length) test.message = errorLines.slice(0, 12).join('\n');
      attachValues(test, pytestValues(errorLines.join('\n')));
    }
    i = j - 1;
  }
}
