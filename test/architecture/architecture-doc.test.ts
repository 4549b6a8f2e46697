// The tree's prose leads somewhere. docs/architecture.md is the map a newcomer follows, docs/design.md
// the design the source comments cite, and every Markdown file and comment points at files: each path
// named must exist (a path with a placeholder, `src/runners/<runner>/`, must lead to an existing
// folder up to the placeholder, and a wildcard stands for at least one file), each relative link must
// resolve from its file's folder, and each `§` cited must be a numbered section of docs/design.md.
import { describe, expect, it } from 'vitest';
import {
  citedSections,
  commentsOf,
  designSections,
  filesUnder,
  isRepositoryExample,
  leadsSomewhere,
  linkResolves,
  namedPaths,
  readText,
  relativeLinks,
} from './named-references.ts';

const MAP = 'docs/architecture.md';
const DESIGN = 'docs/design.md';

/** The documentation: the README, docs/, and the READMEs of the benchmarks and the example. */
const MARKDOWN = [
  'README.md',
  ...filesUnder('docs', (p) => p.endsWith('.md')),
  ...filesUnder('bench', (p) => p.endsWith('README.md')),
  ...filesUnder('examples', (p) => p.endsWith('README.md')),
];

/** Code whose comments a maintainer reads: fixloop's own, never a fixture or a corpus project's. */
const SOURCES = [
  ...filesUnder('src', (p) => /\.(ts|js|cjs|mjs|py)$/.test(p)),
  ...filesUnder('test', (p) => /\.(ts|js|cjs|mjs|py|sh)$/.test(p) && !p.startsWith('test/fixtures/')),
  ...filesUnder('bench', (p) => /\.(ts|js)$/.test(p) && !/^bench\/(corpus|real|results)\//.test(p)),
  ...filesUnder('scripts', (p) => /\.(ts|js|mjs)$/.test(p)),
  'eslint.config.js',
  '.dependency-cruiser.mjs',
  'vitest.config.ts',
  'vitest.full.config.ts',
];

/** Each file's prose: a Markdown file whole, a source file's comments. */
const PROSE: ReadonlyArray<readonly [string, string]> = [
  ...MARKDOWN.map((file) => [file, readText(file)] as const),
  ...SOURCES.map((file) => [file, commentsOf(file, readText(file))] as const),
];

function missingPaths(file: string, text: string): string[] {
  return namedPaths(text)
    .filter((path) => !leadsSomewhere(path) && !isRepositoryExample(path))
    .map((path) => `${file}: ${path}`);
}

describe('docs/architecture.md', () => {
  const text = readText(MAP);

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
});

describe('every Markdown file and source comment', () => {
  const sections = designSections(readText(DESIGN));

  it('reads the files it should', () => {
    expect(MARKDOWN).toEqual(expect.arrayContaining(['README.md', MAP, DESIGN, 'docs/security.md']));
    expect(SOURCES).toEqual(expect.arrayContaining(['src/loop/local-run.ts', 'src/runners/pytest/guard/_record.py']));
    expect(SOURCES.some((f) => f.startsWith('test/fixtures/'))).toBe(false);
  });

  it('names only paths that exist', () => {
    expect(PROSE.flatMap(([file, text]) => missingPaths(file, text))).toEqual([]);
  });

  it('links only to files that exist, from its own folder', () => {
    const broken = MARKDOWN.flatMap((file) =>
      relativeLinks(readText(file))
        .filter((target) => !linkResolves(file, target))
        .map((target) => `${file}: ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('cites only sections docs/design.md has', () => {
    expect(sections.size).toBeGreaterThan(30);
    const cited = PROSE.flatMap(([file, text]) => citedSections(text).map((section) => [file, section] as const));
    expect(cited.length).toBeGreaterThan(100);
    expect(cited.filter(([, section]) => !sections.has(section)).map(([file, section]) => `${file}: §${section}`)).toEqual([]);
  });

  it('cites docs/design.md, never a DESIGN.md a reader of the repository does not have', () => {
    expect(PROSE.filter(([, text]) => /DESIGN\.md/.test(text)).map(([file]) => file)).toEqual([]);
  });
});

describe('the checks check what they should', () => {
  it('catch a missing path and a wrong placeholder folder, and follow placeholders and wildcards', () => {
    expect(leadsSomewhere('src/no-such-stage/x.ts')).toBe(false);
    expect(leadsSomewhere('src/no-such/<runner>/')).toBe(false);
    expect(leadsSomewhere('src/core/')).toBe(true);
    expect(leadsSomewhere('src/runners/<runner>/')).toBe(true);
    expect(leadsSomewhere('src/triggers/on-<event>.ts')).toBe(true);
    expect(leadsSomewhere('src/triggers/off-<event>.ts')).toBe(false);
    expect(missingPaths('x.md', 'see `src/cli/terminal-colour.ts` and src/config/schema.ts.')).toEqual([
      'x.md: src/cli/terminal-colour.ts',
      'x.md: src/config/schema.ts',
    ]);
  });

  it('read a file directly in src/ or test/ that fixloop does not have as a repository’s example, nothing deeper', () => {
    expect(missingPaths('x.ts', 'a repository whose src/math.js is tested by test/math.test.js')).toEqual([]);
    expect(missingPaths('x.ts', 'bench/README.md and src/loop/x.ts')).toEqual(['x.ts: bench/README.md', 'x.ts: src/loop/x.ts']);
  });

  it('catch a section the design does not have, and read a range as its two ends', () => {
    const sections = designSections('# Design\n## 1. The flow\n### 1.6 Loop\n#### 3.2.2 Runner files\n#### 3.2.3 Tampering\n');
    expect([...sections]).toEqual(['1', '1.6', '3.2.2', '3.2.3']);
    expect(citedSections('(docs/design.md §1.6, §4.5) and (§3.2.2–3)')).toEqual(['1.6', '4.5', '3.2.2', '3.2.3']);
    expect(citedSections('docs/design.md § 3.4').filter((s) => !sections.has(s))).toEqual(['3.4']);
  });

  it('catch a link that leads nowhere from its folder, and leave URLs and anchors alone', () => {
    const links = relativeLinks('[a](security.md) [b](../README.md#try-it) [c](https://x.test/y.md) [d](#top) [e](nowhere.md)');
    expect(links).toEqual(['security.md', '../README.md', 'nowhere.md']);
    expect(links.filter((t) => !linkResolves('docs/architecture.md', t))).toEqual(['nowhere.md']);
    expect(linkResolves('README.md', 'security.md')).toBe(false);
  });

  it('read the comments of each language, not its code', () => {
    const ts = "// see src/a/b.ts\nconst p = 'src/c/d.ts'; /* and src/e/f.ts */";
    expect(namedPaths(commentsOf('x.ts', ts))).toEqual(['src/a/b.ts', 'src/e/f.ts']);
    const py = '"""Docstring: src/a/b.py."""\nx = "src/c/d.py"  # src/e/f.py\ny = \'#not a comment\'\n';
    expect(namedPaths(commentsOf('x.py', py))).toEqual(['src/a/b.py', 'src/e/f.py']);
    expect(commentsOf('x.py', py)).not.toContain('not a comment');
    expect(namedPaths(commentsOf('x.sh', '#!/bin/sh\n# records src/a/b.txt\necho "src/c/d.txt"\n'))).toEqual(['src/a/b.txt']);
  });
});
