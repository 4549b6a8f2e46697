// The rivals the assessment tries for another engine's patch: the repair engine's one-edit candidates
// at the lines that patch changed, on the original text, never the patch itself.
import { describe, expect, it } from 'vitest';
import { oneEditRivals } from '../../src/assess/one-edit-rivals.ts';
import type { RivalRequest } from '../../src/assess/rival-search.ts';

const ORIGINAL = [
  'function pageCount(total, size) {',
  '  return Math.floor(total / size);',
  '}',
  'function isEmpty(list) {',
  '  return list.length === 0;',
  '}',
  'module.exports = { pageCount, isEmpty };',
  '',
].join('\n');

function request(patched: string, files: Record<string, string> = { 'src/pages.js': ORIGINAL }): RivalRequest {
  return {
    dir: '/nonexistent',
    original: async (path) => files[path] ?? null,
    patched: { name: 'patch', files: new Map([['src/pages.js', patched]]) },
    fixed: [{ id: 'test/pages.test.js > counts a last page', name: 'counts a last page', status: 'failed' }],
    testFiles: [],
  };
}

describe('oneEditRivals', () => {
  it('edits only the lines the patch changed, on the original text, and leaves the patch itself out', async () => {
    const patched = ORIGINAL.replace('Math.floor(total / size)', 'Math.ceil(total / size)');
    const rivals = await oneEditRivals.candidates(request(patched));
    expect(rivals.length).toBeGreaterThan(3);
    for (const rival of rivals) {
      expect(rival.file).toBe('src/pages.js');
      expect(rival.text).not.toBe(patched);
      // Only the line the patch changed is replaced (by more lines where a guard goes before it).
      const lines = ORIGINAL.split('\n');
      const theirs = rival.text.split('\n');
      expect(theirs.slice(0, 1)).toEqual(lines.slice(0, 1));
      expect(theirs.slice(theirs.length - (lines.length - 2))).toEqual(lines.slice(2));
      expect(rival.summary).toMatch(/^src\/pages\.js:2 /);
    }
    expect(rivals.map((r) => r.summary)).toContain('src/pages.js:2 `/` → `*` (template arithmetic-operator)');
  });

  it("tries first the edits that touch the tokens the patch changed, then the rest of its lines, each in the engine's order", async () => {
    // The patch changes the divisor: an edit of `size`, or of an expression holding it, comes first.
    const patched = ORIGINAL.replace('total / size', 'total / (size || 1)');
    const summaries = (await oneEditRivals.candidates(request(patched))).map((r) => r.summary.replace(/^src\/pages\.js:2 /, ''));
    const at = (summary: string) => summaries.indexOf(summary);
    const touching = ['`size` → `total` (template replace-identifier)', 'swapped the operands of `/` (template swap-operands)'];
    const apart = ['`.floor(…)` → `.ceil(…)` (template min-max)', '`total` → `size` (template replace-identifier)'];
    for (const summary of [...touching, ...apart]) expect(summaries).toContain(summary);
    for (const first of touching) for (const after of apart) expect(at(first)).toBeLessThan(at(after));
    // Within each group, the engine's order: `/` → `*` before `/` → `%`, `.ceil` before `.round`.
    expect(at('`/` → `*` (template arithmetic-operator)')).toBeLessThan(at('`/` → `%` (template arithmetic-operator)'));
    expect(at('`.floor(…)` → `.ceil(…)` (template min-max)')).toBeLessThan(at('`.floor(…)` → `.round(…)` (template min-max)'));
  });

  it('offers none for a file no template reads, or one the patch creates', async () => {
    expect(
      await oneEditRivals.candidates({ ...request(''), patched: { name: 'patch', files: new Map([['README.md', 'text']]) } }),
    ).toEqual([]);
    expect(
      await oneEditRivals.candidates({
        ...request(''),
        patched: { name: 'patch', files: new Map([['src/new.js', 'module.exports = 1;\n']]) },
      }),
    ).toEqual([]);
  });

  it('says which rival weakens a check, as the engine says of its own alternatives', async () => {
    const before = 'function f(x) {\n  if (x < 0) throw new RangeError("negative");\n  return x;\n}\n';
    const after = 'function f(x) {\n  if (false) throw new RangeError("negative");\n  return x;\n}\n';
    const [reason] = await oneEditRivals.weakens([{ file: 'src/f.js', before, after }]);
    expect(reason).toMatch(/constant|throws/);
  });
});
