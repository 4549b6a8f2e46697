// The real corpus's format on corpora made here: a bug's folder and meta.json, a bug not built on
// this machine (its folder with its recipe and no snapshot, or split.json's name alone), the halves.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { candidatePatchHash, isReserved, loadRealCorpus, patchHash, RUNNERS, type RealBug } from '../../bench/lib/real-corpus.ts';
import { loadRealHalf } from '../../bench/lib/real-split.ts';
import { unbuiltNotice, unbuiltRealBugs } from '../../bench/lib/real-unbuilt.ts';

const realDir = fileURLToPath(new URL('../../bench/real', import.meta.url));

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

describe('real-bug corpus: bugs not built here', () => {
  const made: string[] = [];
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const { dir: _dir, ...good } = loadRealCorpus(realDir)[0] as RealBug;
  const recipeOf = (id: string, project: string, runner: string) => ({
    project,
    language: 'python',
    runner,
    setup: '',
    test: 'python -m pytest',
    id,
    fix: 'abcdef0',
  });
  const byRunner = (bugs: Array<{ runner: string }>) =>
    Object.fromEntries(RUNNERS.map((r) => [r, bugs.filter((b) => b.runner === r).length]));

  /**
   * A corpus of two projects, one in each half: a built bug of each, a bug of each whose folder keeps
   * only its recipe, and a bug of each that split.json alone names.
   */
  function corpus(): string {
    const dir = mkdtempSync(join(tmpdir(), 'real-unbuilt-test-'));
    made.push(dir);
    const write = (id: string, files: Record<string, unknown>) => {
      mkdirSync(join(dir, id));
      for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, id, name), String(content));
    };
    const bugs = [
      { id: 'tune-01', project: 'owner/tune', runner: 'mocha' },
      { id: 'tune-02', project: 'owner/tune', runner: 'mocha' },
      { id: 'tune-03', project: 'owner/tune', runner: 'mocha' },
      { id: 'hold-01', project: 'owner/hold', runner: 'pytest' },
      { id: 'hold-02', project: 'owner/hold', runner: 'pytest' },
      { id: 'hold-03', project: 'owner/hold', runner: 'pytest' },
    ];
    for (const { id, project, runner } of bugs.filter((b) => b.id.endsWith('-01'))) {
      const meta = { ...good, id, project, repository: `https://github.com/${project}`, runner };
      write(id, { 'meta.json': JSON.stringify(meta), 'snapshot.tar.gz': '', 'fix.patch': '', 'tests.patch': '' });
    }
    for (const { id, project, runner } of bugs.filter((b) => b.id.endsWith('-02'))) {
      write(id, { 'recipe.json': JSON.stringify(recipeOf(id, project, runner)) });
    }
    const half = (project: string) => {
      const members = bugs.filter((b) => b.project === project);
      return { projects: [project], bugs: members.map((b) => b.id), byRunner: byRunner(members) };
    };
    const split = { seed: 1, rule: 'a test', tuned: [], tuning: half('owner/tune'), heldOut: half('owner/hold') };
    writeFileSync(join(dir, 'split.json'), JSON.stringify(split));
    return dir;
  }

  it('leaves a folder with its recipe and no snapshot out of the corpus, and lists it as not built', () => {
    const dir = corpus();
    expect(loadRealCorpus(dir).map((b) => b.id)).toEqual(['hold-01', 'tune-01']);
    const unbuilt = unbuiltRealBugs(dir);
    expect(unbuilt.map((b) => [b.id, b.recipe?.project])).toEqual([
      ['hold-02', 'owner/hold'],
      ['hold-03', undefined],
      ['tune-02', 'owner/tune'],
      ['tune-03', undefined],
    ]);
  });

  it('gives each half its built bugs, by project', () => {
    const dir = corpus();
    expect(loadRealHalf(dir, undefined).map((b) => b.id)).toEqual(['tune-01']);
    expect(loadRealHalf(dir, 'held-out').map((b) => b.id)).toEqual(['hold-01']);
    expect(() => loadRealHalf(dir, 'all')).toThrow(/--half/);
  });

  it("says in one line per bug a script skips how to build it, in the script's half and filter", () => {
    const dir = corpus();
    const tuning = unbuiltNotice(dir, {});
    expect(tuning).toHaveLength(2);
    expect(tuning[0]).toBe(
      "skip tune-02: not built here; npm run bench:real:build -- bench/real/tune-02/recipe.json builds it (needs owner/tune's repository, fetched into /work/.mirror or given with --mirrors)",
    );
    expect(tuning[1]).toMatch(/^skip 1 bug\(s\) not built here, known only by split\.json .*: tune-03$/);
    const heldOut = unbuiltNotice(dir, { half: 'held-out' });
    expect(heldOut.join('\n')).toMatch(/hold-02.*\n.*: hold-03$/);
    expect(heldOut.join('\n')).not.toMatch(/tune/);
    expect(unbuiltNotice(dir, { bothHalves: true })).toHaveLength(3);
    expect(unbuiltNotice(dir, { bothHalves: true, match: (b) => b.id.includes('-03') })).toEqual([
      expect.stringMatching(/^skip 2 bug\(s\) .*: hold-03, tune-03$/),
    ]);
  });

  it('skips a built folder whose failing tests are not recorded yet (a build under way), saying so, and the checker still loads it', () => {
    const dir = corpus();
    // tune-02 keeps its recipe; the builder has written its code and a meta.json with no failing test yet.
    const meta = { ...good, id: 'tune-02', project: 'owner/tune', failing: [] };
    writeFileSync(join(dir, 'tune-02', 'meta.json'), JSON.stringify(meta));
    for (const name of ['snapshot.tar.gz', 'fix.patch', 'tests.patch']) writeFileSync(join(dir, 'tune-02', name), '');
    expect(loadRealHalf(dir, undefined).map((b) => b.id)).toEqual(['tune-01']);
    expect(loadRealCorpus(dir, true).map((b) => b.id)).toEqual(['hold-01', 'tune-01', 'tune-02']);
    expect(unbuiltNotice(dir, {})).toContain(
      'skip tune-02: its failing tests are not recorded yet (a build under way, or npm run bench:real:check records them)',
    );
    expect(unbuiltNotice(dir, { half: 'held-out' }).join('\n')).not.toMatch(/tune-02/);
  });

  it("refuses a recipe that is not its folder's bug", () => {
    const dir = corpus();
    writeFileSync(join(dir, 'tune-02', 'recipe.json'), JSON.stringify(recipeOf('tune-09', 'owner/tune', 'mocha')));
    expect(() => unbuiltRealBugs(dir)).toThrow(/not the recipe of tune-02/);
  });
});
