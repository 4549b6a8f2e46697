import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { candidatePatchHash, isReserved, loadRealCorpus, patchHash, snapshotFiles } from '../../bench/lib/real-corpus.ts';

const realDir = fileURLToPath(new URL('../../bench/real', import.meta.url));
// The number of bugs built so far: the corpus may grow, never silently shrink.
const BUILT = 38;

describe('real-bug corpus', () => {
  const bugs = loadRealCorpus(realDir);

  it(`holds at least ${BUILT} bugs from at least 6 projects, three languages and five runners`, () => {
    expect(bugs.length).toBeGreaterThanOrEqual(BUILT);
    expect(new Set(bugs.map((b) => b.project)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(bugs.map((b) => b.language))).toEqual(new Set(['javascript', 'typescript', 'python']));
    expect(new Set(bugs.map((b) => b.runner))).toEqual(new Set(['mocha', 'jest', 'vitest', 'node-test', 'pytest']));
  });

  it('takes no bug from a project reserved for independent evaluation', () => {
    for (const bug of bugs) expect(isReserved(bug.repository), bug.id).toBe(false);
  });

  it('ships each snapshot with its license file, and a reference fix of 1 to 5 changed lines', () => {
    for (const bug of bugs) {
      expect(snapshotFiles(bug), bug.id).toContain(bug.licenseFile);
      expect(Math.max(bug.referenceFix.added, bug.referenceFix.removed), bug.id).toBeGreaterThanOrEqual(1);
      expect(Math.max(bug.referenceFix.added, bug.referenceFix.removed), bug.id).toBeLessThanOrEqual(5);
    }
  });

  it('keeps the whole corpus under 10 MB', () => {
    const bytes = bugs.flatMap((b) => readdirSync(b.dir).map((f) => statSync(join(b.dir, f)).size)).reduce((a, b) => a + b, 0);
    expect(bytes).toBeLessThan(10 * 2 ** 20);
  });
});

describe('real-bug corpus format', () => {
  const made: string[] = [];
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  function corpusWith(
    meta: Record<string, unknown>,
    files = ['meta.json', 'snapshot.tar.gz', 'fix.patch', 'tests.patch'],
  ): string {
    const dir = mkdtempSync(join(tmpdir(), 'real-corpus-test-'));
    made.push(dir);
    mkdirSync(join(dir, String(meta.id)));
    for (const f of files) writeFileSync(join(dir, String(meta.id), f), f === 'meta.json' ? JSON.stringify(meta) : '');
    return dir;
  }
  const good = loadRealCorpus(realDir)[0];

  it('names the key of a bad meta.json', () => {
    expect(good).toBeDefined();
    const { dir: _dir, ...meta } = good!;
    expect(() => loadRealCorpus(corpusWith({ ...meta, license: 'GPL-3.0' }))).toThrow(/license/);
    expect(() => loadRealCorpus(corpusWith({ ...meta, failing: [] }))).toThrow(/failing/);
    expect(() => loadRealCorpus(corpusWith({ ...meta, fixCommit: 'abc' }))).toThrow(/fixCommit/);
  });

  it('refuses a bug folder without its snapshot, or whose id is not its folder', () => {
    const { dir: _dir, ...meta } = good!;
    expect(() => loadRealCorpus(corpusWith(meta, ['meta.json', 'fix.patch', 'tests.patch']))).toThrow(/no snapshot\.tar\.gz/);
    const dir = corpusWith(meta);
    mkdirSync(join(dir, 'other-01'));
    writeFileSync(join(dir, 'other-01', 'meta.json'), JSON.stringify(meta));
    expect(() => loadRealCorpus(dir)).toThrow(/does not match the folder/);
  });

  it('recognizes reserved projects by their repository', () => {
    expect(isReserved('https://github.com/expressjs/body-parser')).toBe(true);
    expect(isReserved('https://github.com/jshttp/cookie')).toBe(true);
    expect(isReserved('https://github.com/psf/black')).toBe(true);
    expect(isReserved('https://github.com/more-itertools/more-itertools')).toBe(true);
    expect(isReserved('https://github.com/unjs/ufo')).toBe(false);
  });

  it('hashes a patch by its changed lines, not its offsets', () => {
    const a = '--- a/x.js\n+++ b/x.js\n@@ -1,3 +1,3 @@\n-a - b\n+a + b\n';
    const b = 'diff --git a/x.js b/x.js\nindex 1..2\n--- a/x.js\n+++ b/x.js\n@@ -7,3 +7,3 @@\n-a - b\n+a + b  \n';
    expect(patchHash(a)).toBe(patchHash(b));
    expect(patchHash(a)).not.toBe(patchHash(a.replace('+a + b', '+a * b')));
  });

  it("hashes a candidate's file as git's diff of it hashes (so a hand judgement of a run's patch finds the candidate)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixloop-hash-'));
    const before = 'one\ntwo\nif (x) {\n  y();\n}\nthree\n';
    const after = before.replace('if (x) {', 'if (x !== undefined) {');
    writeFileSync(join(dir, 'a.js'), before);
    writeFileSync(join(dir, 'b.js'), after);
    const diff = spawnSync('git', ['diff', '--no-index', 'a.js', 'b.js'], { cwd: dir, encoding: 'utf8' }).stdout;
    rmSync(dir, { recursive: true, force: true });
    expect(diff).toContain('+if (x !== undefined) {');
    expect(candidatePatchHash(before, after)).toBe(patchHash(diff));
    expect(candidatePatchHash(before, after.replace('y()', 'z()'))).not.toBe(patchHash(diff));
  });
});
