import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyFixes, CATEGORIES, loadCorpus, parseBug } from '../../bench/lib/corpus.ts';
import { median, percentile, rate } from '../../bench/lib/stats.ts';

const BUG = `# id: js-99-sample
# language: javascript
# category: operator
# test: node --test
# description: a sample bug for the parser
--- project/src/a.js
export const f = (a, b) => a - b;
--- hidden/test/a.test.js
// hidden
--- fix src/a.js
export const f = (a, b) => a - b;
===
export const f = (a, b) => a + b;
`;

describe('bug corpus format', () => {
  it('parses headers, files and fixes, and applies the fix', () => {
    const bug = parseBug(BUG, 'corpus/js-99-sample.bug');
    expect(bug).toMatchObject({ id: 'js-99-sample', language: 'javascript', category: 'operator', test: 'node --test' });
    expect(Object.keys(bug.project)).toEqual(['src/a.js']);
    expect(Object.keys(bug.hidden)).toEqual(['test/a.test.js']);
    expect(applyFixes(bug)['src/a.js']).toBe('export const f = (a, b) => a + b;\n');
  });

  it('names what is wrong with a bad bug file', () => {
    expect(() => parseBug(BUG.replace('# category: operator', '# category: typo'), 'corpus/js-99-sample.bug')).toThrow(
      /category/,
    );
    expect(() => parseBug(BUG, 'corpus/other-name.bug')).toThrow(/does not match the file name/);
    expect(() => parseBug(BUG.replace('===\n', ''), 'corpus/js-99-sample.bug')).toThrow(/needs a line "==="/);
  });

  it('holds at least 40 bugs in three languages, every category, five or more beyond the templates', () => {
    const bugs = loadCorpus(fileURLToPath(new URL('../../bench/corpus', import.meta.url)));
    expect(bugs.length).toBeGreaterThanOrEqual(40);
    expect(new Set(bugs.map((b) => b.language))).toEqual(new Set(['javascript', 'typescript', 'python']));
    expect(new Set(bugs.map((b) => b.category))).toEqual(new Set(CATEGORIES));
    expect(bugs.filter((b) => b.category === 'beyond-templates').length).toBeGreaterThanOrEqual(5);
    for (const bug of bugs) expect(() => applyFixes(bug), bug.id).not.toThrow();
  });
});

describe('statistics', () => {
  it('computes medians, nearest-rank percentiles and rates', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
    expect(percentile([5], 90)).toBe(5);
    expect(rate(7, 10)).toBe('70 %');
    expect(rate(0, 0)).toBe('–');
  });
});
