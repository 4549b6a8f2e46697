// The real-bug corpus as committed, with whatever is built on this machine beside it: the bugs the
// builder makes are never committed (bench/real/README.md), so a fresh clone holds the 38 bugs
// committed whole before that rule and knows the others by split.json alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bugFolders, isReserved, loadRealCorpus, RUNNERS, snapshotFiles } from '../../bench/lib/real-corpus.ts';
import { isHeldOut, loadRealHalf, readRealSplit } from '../../bench/lib/real-split.ts';
import { unbuiltRealBugs } from '../../bench/lib/real-unbuilt.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const realDir = join(root, 'bench/real');
// The bugs committed whole (their code too) before built bugs were kept out of git: never more, never fewer.
const COMMITTED = 38;
// The bugs split.json names, built here or not: the corpus may grow, never silently shrink.
const NAMED = 130;

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

describe('real-bug corpus', () => {
  const bugs = loadRealCorpus(realDir);
  const unbuilt = unbuiltRealBugs(realDir);
  const split = readRealSplit(realDir);
  const named = split ? [...split.tuning.bugs, ...split.heldOut.bugs] : [];
  // A bug with no recipe could not be built again: its folder is whole, as it was committed.
  const whole = bugs.filter((b) => !existsSync(join(b.dir, 'recipe.json')));

  it('reads every bug folder: a built bug by its meta.json and files, one not built by its recipe', () => {
    const read = new Set([...bugs.map((b) => b.id), ...unbuilt.filter((b) => b.recipe).map((b) => b.id)]);
    expect([...read].sort()).toEqual(bugFolders(realDir));
  });

  it(`holds the ${COMMITTED} bugs committed whole, from 7 projects, three languages and five runners`, () => {
    expect(whole.length).toBeGreaterThanOrEqual(COMMITTED);
    expect(new Set(whole.map((b) => b.project)).size).toBeGreaterThanOrEqual(7);
    expect(new Set(whole.map((b) => b.language))).toEqual(new Set(['javascript', 'typescript', 'python']));
    expect(new Set(whole.map((b) => b.runner))).toEqual(new Set(RUNNERS));
  });

  it('commits the code of no bug beyond those, nor any recipe or meta.json of a built bug', () => {
    const tracked = git('ls-files', 'bench/real');
    expect(tracked.filter((f) => f.endsWith('/snapshot.tar.gz'))).toHaveLength(COMMITTED);
    expect(tracked.filter((f) => f.endsWith('/recipe.json'))).toEqual([]);
    for (const bug of whole) {
      for (const file of ['meta.json', 'snapshot.tar.gz', 'fix.patch', 'tests.patch'])
        expect(tracked, bug.id).toContain(`bench/real/${bug.id}/${file}`);
    }
    // What the builder writes is ignored, in any bug's folder.
    for (const file of ['snapshot.tar.gz', 'fix.patch', 'tests.patch', 'recipe.json', 'meta.json']) {
      expect(git('check-ignore', '--no-index', `bench/real/any-project-01/${file}`), file).toHaveLength(1);
    }
  });

  it(`names at least ${NAMED} bugs in split.json, each once, every bug folder among them`, () => {
    expect(named.length).toBeGreaterThanOrEqual(NAMED);
    expect(new Set(named).size).toBe(named.length);
    for (const id of bugFolders(realDir)) expect(named, id).toContain(id);
  });

  it('takes no bug from a project reserved for independent evaluation', () => {
    for (const bug of bugs) expect(isReserved(bug.repository), bug.id).toBe(false);
    const projects = [...(split?.tuning.projects ?? []), ...(split?.heldOut.projects ?? [])];
    for (const project of projects) expect(isReserved(`https://github.com/${project}`), project).toBe(false);
  });

  it('ships each snapshot with its license file, and a reference fix of 1 to 5 changed lines', () => {
    for (const bug of bugs) {
      expect(snapshotFiles(bug), bug.id).toContain(bug.licenseFile);
      expect(Math.max(bug.referenceFix.added, bug.referenceFix.removed), bug.id).toBeGreaterThanOrEqual(1);
      expect(Math.max(bug.referenceFix.added, bug.referenceFix.removed), bug.id).toBeLessThanOrEqual(5);
    }
  });

  it('is split once by project: every project in one half, the projects tuned on before in the tuning half', () => {
    expect(split).toBeDefined();
    const { tuning, heldOut, tuned } = split!;
    expect(tuning.projects.filter((p) => heldOut.projects.includes(p))).toEqual([]);
    for (const project of tuned) expect(tuning.projects, project).toContain(project);
    for (const bug of whole) expect(tuned, bug.id).toContain(bug.project);
    // A bug here, built or by its recipe, is in its project's half, and its half lists it.
    const here = [
      ...bugs.map((b) => ({ id: b.id, project: b.project, runner: b.runner })),
      ...unbuilt.flatMap(({ recipe: r }) => (r ? [{ id: r.id, project: r.project, runner: r.runner }] : [])),
    ];
    for (const bug of here) {
      const half = isHeldOut(split, bug) ? heldOut : tuning;
      expect(half.projects, bug.id).toContain(bug.project);
      expect(half.bugs, bug.id).toContain(bug.id);
    }
    // Each runner has bugs on both sides, so the held-out figures speak for every runner; the counts
    // are the halves' own, and those of the bugs here never exceed them (they equal them with all here).
    for (const half of [tuning, heldOut]) {
      for (const runner of RUNNERS) expect(half.byRunner[runner], runner).toBeGreaterThan(0);
      expect(Object.values(half.byRunner).reduce((a, b) => a + b, 0)).toBe(half.bugs.length);
      for (const runner of RUNNERS) {
        const count = here.filter((b) => b.runner === runner && half.bugs.includes(b.id)).length;
        expect(count, runner).toBeLessThanOrEqual(half.byRunner[runner]);
        if (here.length === named.length) expect(count, runner).toBe(half.byRunner[runner]);
      }
    }
  });

  it('gives the scripts that run fixloop the tuning half of the built bugs unless the held-out half is asked for', () => {
    const tuning = loadRealHalf(realDir, undefined);
    const heldOut = loadRealHalf(realDir, 'held-out');
    expect(tuning.length + heldOut.length).toBe(bugs.length);
    expect(heldOut.every((b) => split!.heldOut.bugs.includes(b.id))).toBe(true);
    expect(tuning.every((b) => split!.tuning.bugs.includes(b.id))).toBe(true);
    expect(loadRealHalf(realDir, 'tuning')).toEqual(tuning);
  });

  it('names no held-out bug or project outside split.json and the bugs own folders', () => {
    const { bugs: ids, projects } = split!.heldOut;
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const pattern = new RegExp(`(?<![\\w-])(${[...ids, ...projects].map(escape).join('|')})(?![\\w-])`, 'i');
    // What is committed or would be (untracked, not ignored); an archive is a project's own files.
    const files = [...git('ls-files'), ...git('ls-files', '--others', '--exclude-standard')].filter(
      (f) => f !== 'bench/real/split.json' && !ids.some((id) => f.startsWith(`bench/real/${id}/`)) && !f.endsWith('.gz'),
    );
    const naming = files.filter((f) => isFile(join(root, f)) && pattern.test(readFileSync(join(root, f), 'utf8')));
    expect(naming).toEqual([]);
  });

  it('keeps the committed bugs under 10 MB', () => {
    const bytes = whole.flatMap((b) => readdirSync(b.dir).map((f) => statSync(join(b.dir, f)).size)).reduce((a, b) => a + b, 0);
    expect(bytes).toBeLessThan(10 * 2 ** 20);
  });
});
