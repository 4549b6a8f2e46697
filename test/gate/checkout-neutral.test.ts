// The gate writes the checkout's path in test names as `<checkout>` (src/gate/checkout-neutral.ts),
// by the path it was given and by its real path, so that runs in different checkouts compare; a
// name selected by a pattern reads the token as any path.
import { mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestReport } from '../../src/core/test-report.ts';
import { checkoutNeutral } from '../../src/gate/checkout-neutral.ts';
import { namePattern } from '../../src/runners/test-name-pattern.ts';

const real = realpathSync(mkdtempSync(join(tmpdir(), 'fixloop-neutral-')));
const link = `${real}-link`;
symlinkSync(real, link);
afterAll(() => {
  unlinkSync(link);
  rmSync(real, { recursive: true, force: true });
});

const report = (ids: string[]): TestReport => ({
  format: 'tap',
  parsed: true,
  passed: ids.length,
  failed: 0,
  skipped: 0,
  total: ids.length,
  tests: ids.map((id) => ({ id, name: id.split(' > ').at(-1) ?? id, status: 'passed' as const })),
  conflicts: ids.map((id) => ({ subject: `unseen:${id}`, message: 'seen once' })),
});

describe('test names that carry the checkout’s path', () => {
  it('write it as <checkout>, given as a link or as its real path, in ids, names and conflicts', () => {
    const neutral = checkoutNeutral(report([`t.js > relative('${link}/a')`, `t.js > in ${real}/b`, 't.js > plain']), link);
    expect(neutral.tests.map((t) => [t.id, t.name])).toEqual([
      ["t.js > relative('<checkout>/a')", "relative('<checkout>/a')"],
      ['t.js > in <checkout>/b', 'in <checkout>/b'],
      ['t.js > plain', 'plain'],
    ]);
    expect(neutral.conflicts?.map((c) => c.subject)).toEqual([
      "unseen:t.js > relative('<checkout>/a')",
      'unseen:t.js > in <checkout>/b',
      'unseen:t.js > plain',
    ]);
  });

  it('leave a report that names no path as it is', () => {
    const plain = report(['t.js > adds']);
    expect(checkoutNeutral(plain, real)).toBe(plain);
  });

  it('select such a test by a pattern that reads the token as any path', () => {
    const pattern = new RegExp(namePattern([{ id: 'x', name: 'in <checkout>/b (1.5)', status: 'failed' }]));
    expect(pattern.test('in /tmp/fixloop-elsewhere/work/b (1.5)')).toBe(true);
    expect(pattern.test('in /b (1.5)')).toBe(false);
  });
});
