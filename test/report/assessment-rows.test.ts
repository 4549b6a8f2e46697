// A report a reviewer reads in a minute (issue 47, item 5; docs/design.md §3.3): changes of one
// pattern merged into one row with a count, the rows another plausible patch disputes first, values
// as the part that differs, and at most 8 rows in the pull request, the rest said to be in result.json.
import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../src/core/assessment.ts';
import { renderMarkdownReport } from '../../src/report/render-markdown.ts';
import { changeCore, differingParts } from '../../src/report/value-difference.ts';
import { assessedResult, change, reviewAssessment } from '../support/sample-assessment.ts';

/** The behaviour changes table's rows, without its header. */
function tableRows(md: string): string[] {
  const lines = md.split('\n');
  const header = lines.indexOf('| Function | Input | Before | After | Seen in |');
  const end = lines.indexOf('', header);
  return lines.slice(header + 2, end < 0 ? undefined : end);
}

function review(over: Partial<Assessment>): string {
  return renderMarkdownReport(assessedResult({ ...reviewAssessment(), ...over }));
}

describe('the rows of the behaviour changes table', () => {
  it('merges the changes of one function that do the same thing into one row with a count', () => {
    const changes = Array.from({ length: 31 }, (_, i) => change(`join('a${i}')`, `'a${i}'`, `'a${i}/'`));
    const md = review({ behaviourChanges: changes, counts: { suiteCalls: 40, generatedInputs: 0, changes: 31, nearFailing: 0 } });
    expect(tableRows(md)).toEqual([
      "| `isAbsolute` (`src/path.ts:12`) | `join('a0')` (× 31: the same change on 30 other inputs) | `'a0'` | `'a0/'` | `test/path.test.ts:40` |",
    ]);
    expect(md).not.toContain('more (the first ones');
  });

  it('keeps apart changes of one function that do different things', () => {
    const md = review({ behaviourChanges: [change('f(1)', 'false', 'true'), change('f(2)', "'x'", 'undefined')] });
    expect(tableRows(md)).toHaveLength(2);
  });

  it('keeps apart a change on an input the original ran as a passing test', () => {
    const md = review({
      behaviourChanges: [
        change('f(1)', "'a'", "'a/'"),
        change('f(2)', "'b'", "'b/'", { kind: 'generated', pathLike: 'passing' }),
      ],
    });
    expect(tableRows(md)).toHaveLength(2);
    expect(tableRows(md)[1]).toContain('the original ran it as it ran a passing test');
  });

  it('puts first, and says so, the rows on which another plausible patch gives another result', () => {
    const md = review({
      behaviourChanges: [change('f(1)', '1', '2'), change('g(0)', 'null', 'undefined', { function: 'g' })],
      alternatives: [
        { summary: 'src/a.js: < → <=', disagreements: [{ input: 'g(0)', chosen: 'undefined', alternative: 'null' }] },
      ],
    });
    const rows = tableRows(md);
    expect(rows[0]).toContain('| `g(0)` |');
    expect(rows[0]).toContain('**another plausible patch gives another result here**');
    expect(rows[1]).toContain('| `f(1)` |');
    expect(rows[1]).not.toContain('another plausible patch');
  });

  it('shows at most 8 rows and says how many changes are left for result.json', () => {
    const changes = Array.from({ length: 12 }, (_, i) => change(`f(${i})`, 'true', `'v${i}'`));
    const md = review({ behaviourChanges: changes, counts: { suiteCalls: 12, generatedInputs: 0, changes: 12, nearFailing: 0 } });
    expect(tableRows(md)).toHaveLength(8);
    expect(md).toContain('… and 4 more (the first ones are in `result.json`).');
  });

  it('shows a long value as the part that differs, its shared start and end elided', () => {
    const url = (path: string) => `'https://example.com/some/long/prefix/${path}?query=with&many=parameters&that=repeat'`;
    const md = review({ behaviourChanges: [change('f(u)', url('a'), url('b'))] });
    expect(tableRows(md)[0]).toContain(
      '| `…le.com/some/long/prefix/a?query=with&many=paramet…` | `…le.com/some/long/prefix/b?query=with&many=paramet…` |',
    );
  });
});

describe('an other plausible patch’s disagreements', () => {
  it('merges the inputs of one pattern and shows at most 8 lines in all', () => {
    const alike = Array.from({ length: 20 }, (_, i) => ({ input: `f(${i})`, chosen: `'x${i}'`, alternative: `'x${i}!'` }));
    const other = Array.from({ length: 10 }, (_, i) => ({ input: `g(${i})`, chosen: `${i}`, alternative: `'n${i}'` }));
    const md = review({
      behaviourChanges: [],
      counts: { suiteCalls: 1, generatedInputs: 0, changes: 0, nearFailing: 0 },
      alternatives: [{ summary: 'src/a.js: < → <=', disagreements: [...alike, ...other] }],
    });
    const lines = md.split('\n').filter((l) => l.startsWith('  - '));
    expect(lines[0]).toBe("  - `f(0)` (× 20: the same on 19 other inputs): `'x0'` with this patch, `'x0!'` with that one");
    expect(lines).toHaveLength(9);
    expect(lines.at(-1)).toBe('  - … and 3 more inputs (in `result.json`)');
  });
});

describe('differingParts and changeCore', () => {
  it('shows two objects as the keys whose values differ, and an absent key as such', () => {
    expect(differingParts("{ a: 1, b: 'x, y', c: [1, 2] }", "{ a: 1, b: 'x, z', c: [1, 2] }")).toEqual([
      "{ b: 'x, y', … }",
      "{ b: 'x, z', … }",
    ]);
    expect(differingParts('Res { status: 200 }', 'Res { status: 200, hash: 7 }')).toEqual([
      'Res { hash: <absent>, … }',
      'Res { hash: 7, … }',
    ]);
  });

  it('shows a nested object that differs as its own differing keys', () => {
    expect(differingParts('{ id: 1, res: { status: 200, body: 42 } }', '{ id: 1, res: { status: 500, body: 42 } }')).toEqual([
      '{ res: { status: 200, … }, … }',
      '{ res: { status: 500, … }, … }',
    ]);
  });

  it('shows two objects with the same entries in another order whole', () => {
    expect(differingParts('{ a: 1, b: 2 }', '{ b: 2, a: 1 }')).toEqual(['{ a: 1, b: 2 }', '{ b: 2, a: 1 }']);
  });

  it('leaves a short value whole', () => {
    expect(differingParts('false', 'true')).toEqual(['false', 'true']);
  });

  it('gives one core to changes that do the same thing on different values', () => {
    expect(changeCore("'a/b'", "'a/b/'")).toBe(changeCore("'c'", "'c/'"));
    expect(changeCore("'a/b'", "'a/b/'")).not.toBe(changeCore("'c'", "'c'\\''"));
  });
});

describe('long values the probes shortened', () => {
  // As js/probe-text.cjs writes a long value: 300 characters, `…`, the last 80, `…#` and a hash.
  const shortened = (text: string, hash: string) => `${text.slice(0, 300)}…${text.slice(-80)}…#${hash}`;
  const state = (kind: string, size: number) =>
    `Table { kind: ${kind}, items: [${Array.from({ length: 200 }, () => size).join(', ')}], end: 1 }`;

  it('gives one core to the same change on values of other sizes, though it moved the cuts and the hash', () => {
    const first = changeCore(shortened(state('Uint8', 7), '1a2b3c4d'), shortened(state('Uint16', 7), '5e6f7a8b'));
    const second = changeCore(shortened(state('Uint8', 12), '0badcafe'), shortened(state('Uint16', 12), 'deadbeef'));
    expect(first).toBe(second);
    expect(first).toBe('8\u000016');
  });

  it('keeps apart changes whose values differ only where they were left out: nothing shown is alike', () => {
    // 300 characters kept, then what shortening leaves out, then the 80 kept of the end.
    const hidden = (middle: string) => `${'x'.repeat(350)}${middle}${'y'.repeat(100)}`;
    const first = changeCore(shortened(hidden('a'), '11111111'), shortened(hidden('b'), '22222222'));
    const second = changeCore(shortened(hidden('c'), '33333333'), shortened(hidden('d'), '44444444'));
    expect(first).not.toBe(second);
  });
});
