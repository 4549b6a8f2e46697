// Test names that carry the checkout's own path: a path library's tests named after `process.cwd()`,
// a pytest id made from `os.getcwd()`. The baseline, the replay and each of the judge's looks run in
// a checkout of their own, so such a test would be another test in every run, and the baseline's
// would "no longer run" after any patch. The gate writes the path as `<checkout>` in the report's
// test ids and names (and the disagreements keyed by them), so that runs in different checkouts
// compare; selecting such a test by name reads the token as any path (test-name-pattern.ts), and by
// pytest's exact node id gives the folder back from the shell (pytest-runner.ts).
import { realpathSync } from 'node:fs';
import { CHECKOUT, type TestReport } from '../core/test-report.ts';

export function checkoutNeutral(report: TestReport, cwd: string): TestReport {
  const paths = [...new Set([cwd, realOf(cwd)])].filter((p) => p.length > 1).sort((a, b) => b.length - a.length);
  const neutral = (text: string) => paths.reduce((t, path) => t.replaceAll(path, CHECKOUT), text);
  const named = (text: string) => paths.some((path) => text.includes(path));
  const conflicts = report.conflicts;
  if (!report.tests.some((t) => named(t.id) || named(t.name)) && !conflicts?.some((c) => named(c.subject))) return report;
  return {
    ...report,
    tests: report.tests.map((t) => ({ ...t, id: neutral(t.id), name: neutral(t.name) })),
    ...(conflicts ? { conflicts: conflicts.map((c) => ({ ...c, subject: neutral(c.subject) })) } : {}),
  };
}

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
