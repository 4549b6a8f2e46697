// Splits the real corpus by project, once, into a tuning half and a held-out half (bench/real/split.json).
// The projects already tuned on (the `tuned` list given) stay in the tuning half; every other project
// is drawn by a seeded shuffle, runner by runner, so that each runner has projects on both sides where
// it can: within a runner, projects alternate between the halves in the drawn order, the first going to
// the half with fewer of the drawn bugs so far. Nothing about how fixloop does on a bug enters the draw.
// Run once: node bench/split-real.ts --seed <n> --tuned <project>,<project>,... [--force]
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { args, flag } from './lib/args.ts';
import { loadRealCorpus, RUNNERS, type RealBug } from './lib/real-corpus.ts';
import { unbuiltRealBugs } from './lib/real-unbuilt.ts';

const realDir = fileURLToPath(new URL('./real', import.meta.url));
const splitPath = join(realDir, 'split.json');

/** mulberry32: a small seeded generator, so the draw can be repeated from its seed alone. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** What the draw reads of a bug: a bug not built here tells it by its recipe. */
type Drawn = Pick<RealBug, 'id' | 'project' | 'runner'>;

/** Every bug of the corpus, built here or by its recipe; a draw without some of them would be another draw. */
function corpusToDraw(): Drawn[] {
  const unbuilt = unbuiltRealBugs(realDir);
  const absent = unbuilt.filter((bug) => !bug.recipe).map((bug) => bug.id);
  if (absent.length > 0)
    throw new Error(
      `split.json names ${absent.length} bugs this checkout holds neither built nor by recipe: ${absent.join(', ')}`,
    );
  const byRecipe = unbuilt.flatMap(({ recipe }) =>
    recipe ? [{ id: recipe.id, project: recipe.project, runner: recipe.runner }] : [],
  );
  return [...loadRealCorpus(realDir), ...byRecipe].sort((a, b) => a.id.localeCompare(b.id));
}

/** The drawn projects' halves: runner by runner, alternating from the lighter half. */
function drawSplit(bugs: Drawn[], tuned: string[], seed: number): { tuning: string[]; heldOut: string[] } {
  const random = generator(seed);
  const byProject = new Map<string, Drawn[]>();
  for (const bug of bugs) byProject.set(bug.project, [...(byProject.get(bug.project) ?? []), bug]);
  const tuning = [...tuned].filter((p) => byProject.has(p));
  const heldOut: string[] = [];
  const drawn = { tuning: 0, heldOut: 0 };
  for (const runner of RUNNERS) {
    const projects = [...byProject.keys()].filter((p) => !tuned.includes(p) && byProject.get(p)?.[0]?.runner === runner).sort();
    let side: 'tuning' | 'heldOut' = drawn.heldOut <= drawn.tuning ? 'heldOut' : 'tuning';
    for (const project of shuffle(projects, random)) {
      (side === 'tuning' ? tuning : heldOut).push(project);
      drawn[side] += byProject.get(project)?.length ?? 0;
      side = side === 'tuning' ? 'heldOut' : 'tuning';
    }
  }
  return { tuning: tuning.sort(), heldOut: heldOut.sort() };
}

const seed = Number(flag('--seed'));
const tuned = (flag('--tuned') ?? '').split(',').filter(Boolean);
if (!Number.isInteger(seed)) throw new Error('usage: split-real.ts --seed <n> --tuned <project>,... [--force]');
if (existsSync(splitPath) && !args.includes('--force')) throw new Error(`${splitPath} exists: the corpus is split once`);
const bugs = corpusToDraw();
const { tuning, heldOut } = drawSplit(bugs, tuned, seed);
const half = (projects: string[]) => {
  const members = bugs.filter((b) => projects.includes(b.project));
  const byRunner = Object.fromEntries(RUNNERS.map((r) => [r, members.filter((b) => b.runner === r).length]));
  return { projects, bugs: members.map((b) => b.id), byRunner };
};
const split = {
  seed,
  rule: 'bench/split-real.ts: the projects tuned on before the split stay in the tuning half; the others are drawn by a seeded shuffle per runner, alternating between the halves from the one with fewer drawn bugs',
  tuned,
  tuning: half(tuning),
  heldOut: half(heldOut),
};
writeFileSync(splitPath, `${JSON.stringify(split, null, 2)}\n`);
console.log(`tuning: ${split.tuning.bugs.length} bugs, held out: ${split.heldOut.bugs.length} bugs`);
