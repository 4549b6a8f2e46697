// Whose call a record is, when the failing tests cannot be run alone (a test command the runner
// cannot focus, as `npm run generate && node --test`): a call is the failing tests' when it came
// from one of them. A record names the test itself (its `site` is the test's id), or the lines of
// the test files on its stack (`testLines`), told apart by where each failing test's own code is
// (a probe language's failingTestSpans), or only its first caller, in a failing test's file.
import type { TestCaseResult } from '../core/test-report.ts';
import type { EntrySources } from './entry-sources.ts';
import type { FailingTestSpans } from './probe-language.ts';
import { PROBE_LANGUAGES } from './probe-languages.ts';
import type { ProbeRecord } from './probe-record.ts';

/** Where each failing test's own code is, by test file, as the languages whose records name test lines find it. */
export async function failingTestSpans(
  fixed: readonly TestCaseResult[],
  sources: Pick<EntrySources, 'read' | 'testFiles'>,
): Promise<FailingTestSpans> {
  const spans: FailingTestSpans = new Map();
  for (const language of PROBE_LANGUAGES)
    for (const [file, found] of (await language.failingTestSpans?.(fixed, sources)) ?? []) spans.set(file, found);
  return spans;
}

/**
 * Whether a suite call came from a failing test: its pytest id is one of theirs; or a line of a test
 * file on its stack lies in a failing test's span; or, with no test file on its stack (Python, or
 * a runtime that did not know the test files), its first caller is in a failing test's file.
 */
export function fromFailingTests(fixed: readonly TestCaseResult[], spans: FailingTestSpans): (record: ProbeRecord) => boolean {
  const ids = new Set(fixed.map((t) => t.id));
  const files = new Set(fixed.flatMap((t) => (t.file ? [t.file] : [])));
  const inFailingTest = (at: string) => {
    const match = /^(.*):(\d+)$/.exec(at);
    if (!match) return false;
    const found = spans.get(match[1] ?? '');
    const line = Number(match[2]);
    return found === null || (found !== undefined && found.some(([first, last]) => line >= first && line <= last));
  };
  return (record) => {
    if (record.site === undefined) return false;
    if (ids.has(record.site)) return true;
    if (record.testLines && record.testLines.length > 0) return record.testLines.some(inFailingTest);
    return files.has(record.site.replace(/:\d+$/, '').split('::')[0] ?? '');
  };
}
