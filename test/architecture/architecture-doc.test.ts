// docs/architecture.md is the map a newcomer follows: every path it names must exist, or the map
// leads nowhere. A path with a placeholder (`src/runners/<runner>/`) must lead to an existing folder
// up to the placeholder, and a wildcard stands for at least one file.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const DOC = 'docs/architecture.md';
const PATH = /(?<![\w./-])((?:src|test|bench|docs|scripts|schema|examples)\/[\w./<>*-]*[\w/>*-])/g;

function namedPaths(text: string): string[] {
  return [...new Set([...text.matchAll(PATH)].map((m) => m[1]!))];
}

function leadsSomewhere(path: string): boolean {
  const placeholder = path.search(/[<*]/);
  if (placeholder === -1) return existsSync(path) || existsSync(path.replace(/\/$/, ''));
  const folder = path.slice(0, placeholder).replace(/\/[^/]*$/, '') || '.';
  if (!existsSync(folder)) return false;
  // `src/triggers/on-<event>.ts`: some file of that folder has the fixed start.
  const start = path.slice(folder.length + 1, placeholder);
  return readdirSync(folder).some((name) => name.startsWith(start));
}

describe('docs/architecture.md', () => {
  const text = readFileSync(DOC, 'utf8');

  it('names only paths that exist', () => {
    const paths = namedPaths(text);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((p) => !leadsSomewhere(p))).toEqual([]);
  });

  it('says where each kind of addition goes', () => {
    for (const addition of ['a runner', 'a repair template', 'a trigger', 'a forge', 'an engine', 'a probe language']) {
      expect(text.toLowerCase()).toContain(`| ${addition}`);
    }
  });

  it('checks what it should: a missing path and a wrong placeholder folder are caught', () => {
    expect(leadsSomewhere('src/no-such-stage/x.ts')).toBe(false);
    expect(leadsSomewhere('src/no-such/<runner>/')).toBe(false);
    expect(leadsSomewhere('src/core/')).toBe(true);
    expect(leadsSomewhere(`${dirname(DOC)}/architecture.md`)).toBe(true);
  });
});
