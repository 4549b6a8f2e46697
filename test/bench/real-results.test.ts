// The real-bug benchmark's results file: outcomes appended as they come, read back by bug, a rerun's
// line winning over the earlier one, and a broken line named by its number.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendResult, readResults, type StoredOutcome } from '../../bench/lib/real-results.ts';

const dir = mkdtempSync(join(tmpdir(), 'fixloop-real-results-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const outcome = (id: string, status: string, commit = 'abc1234'): StoredOutcome => ({
  id,
  commit,
  status,
  plausible: status === 'tests_green',
  correct: 'no',
  attempts: 1,
  fixMs: 300_000,
  reason: '',
});

describe('real-bug results', () => {
  it('reads back what was appended, by bug, the latest line of a bug winning', () => {
    const file = join(dir, 'results.jsonl');
    expect(readResults(file).size).toBe(0);
    appendResult(file, outcome('ufo-01', 'escalated'));
    appendResult(file, { ...outcome('ufo-03', 'tests_green'), correct: 'unjudged', patch: '--- a/x\n+++ b/x\n-a\n+b\n' });
    appendResult(file, outcome('ufo-01', 'tests_green', 'def5678'));
    const read = readResults(file);
    expect([...read.keys()]).toEqual(['ufo-01', 'ufo-03']);
    expect(read.get('ufo-01')).toMatchObject({ status: 'tests_green', commit: 'def5678' });
    expect(read.get('ufo-03')?.patch).toContain('+b');
  });

  it('names the line that is broken, and refuses to write an outcome without its commit', () => {
    const file = join(dir, 'broken.jsonl');
    appendResult(file, outcome('ufo-01', 'escalated'));
    appendFileSync(file, '{"id":"ufo-02"}\n');
    expect(() => readResults(file)).toThrow(/broken\.jsonl:2: commit/);
    appendFileSync(file, 'not json\n');
    expect(() => appendResult(file, { ...outcome('ufo-04', 'escalated'), commit: '' })).toThrow();
  });
});
