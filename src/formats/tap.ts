// TAP 13/14, including node's `--test-reporter=tap` with indented subtests:
//   ok 1 - name # SKIP reason / not ok 2 - name, then an indented YAML block (---/...) with the error.
import type { TestCaseResult, TestReport } from '../core/test-report.ts';
import { buildReport } from './report-builder.ts';

const POINT = /^( *)(ok|not ok)\b(?: \d+)?(?: -)? ?(.*?)(?: # (SKIP|TODO)\b.*)?$/i;

export function parseTap(text: string): TestReport | null {
  const lines = text.split('\n');
  if (!lines.some((l) => /^(TAP version \d+|1\.\.\d+)\s*$/.test(l.trim())) || !lines.some((l) => POINT.test(l))) return null;
  // A point followed (after its YAML block) by deeper points is a suite: only leaves are tests.
  const points: { indent: number; ok: boolean; name: string; directive: string | undefined; yaml: string[]; line: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = POINT.exec(lines[i] ?? '');
    if (!m || m[1] === undefined || !m[2]) continue;
    const yaml: string[] = [];
    if (/^\s*---\s*$/.test(lines[i + 1] ?? '')) {
      let j = i + 2;
      for (; j < lines.length && !/^\s*\.\.\.\s*$/.test(lines[j] ?? ''); j++) yaml.push(lines[j] ?? '');
      i = j;
    }
    points.push({
      indent: m[1].length,
      ok: m[2].toLowerCase() === 'ok',
      name: (m[3] ?? '').trim(),
      directive: m[4],
      yaml,
      line: i,
    });
  }
  const tests: TestCaseResult[] = [];
  const path: { indent: number; name: string }[] = [];
  // Subtests are printed before their parent's point, so walk backwards to know each point's parents.
  const parents = new Map<number, string[]>();
  for (let k = points.length - 1; k >= 0; k--) {
    const p = points[k];
    if (!p) continue;
    while (path.length && (path.at(-1)?.indent ?? 0) >= p.indent) path.pop();
    parents.set(
      k,
      path.map((x) => x.name),
    );
    path.push({ indent: p.indent, name: p.name });
  }
  points.forEach((p, k) => {
    const next = points[k - 1];
    const isSuite = next !== undefined && next.indent > p.indent;
    if (isSuite) return;
    const status = p.directive ? 'skipped' : p.ok ? 'passed' : 'failed';
    const id = [...(parents.get(k) ?? []), p.name].join(' > ');
    const test: TestCaseResult = { id, name: p.name, status };
    if (status === 'failed' && p.yaml.length) {
      const yaml = p.yaml.map((l) => l.trim()).join('\n');
      const message = /error: \|?-?\s*\n?\s*['"]?(.+?)['"]?$/m.exec(yaml)?.[1];
      if (message) test.message = message;
      test.stack = p.yaml.join('\n');
    }
    tests.push(test);
  });
  return buildReport('tap', tests);
}
