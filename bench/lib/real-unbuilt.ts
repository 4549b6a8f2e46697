// The real corpus's bugs that are not built on this machine. A bug bench/build-real-bug.ts builds is
// never committed, code, recipe or meta.json (bench/real/README.md): its code is the project's own,
// brought by fetch. So a checkout knows such a bug by split.json alone where it was not built, and a
// folder that keeps its recipe without its snapshot is one whose code was removed. Either is "not
// built": the scripts that run bugs skip it, saying so in one line, and with the command that
// builds it where its recipe is here.
import { join } from 'node:path';
import { bugFolders, isUnbuilt, isUnrecorded } from './real-corpus.ts';
import { readRecipes, type BugRecipe } from './real-recipe.ts';
import { halfOf, isHeldOut, readRealSplit } from './real-split.ts';

export interface UnbuiltBug {
  id: string;
  /** The recipe that builds it, where its folder keeps one; undefined for a bug this checkout lacks. */
  recipe: BugRecipe | undefined;
}

/** A folder's own recipe: one bug, the folder's. */
function folderRecipe(dir: string, id: string): BugRecipe {
  const path = join(dir, id, 'recipe.json');
  const recipes = readRecipes(path);
  if (recipes.length !== 1 || recipes[0]?.id !== id) throw new Error(`${path}: not the recipe of ${id} alone`);
  return recipes[0];
}

/** The corpus's bugs not built here: folders with their recipe and no snapshot, and bugs split.json names with no folder. */
export function unbuiltRealBugs(dir: string): UnbuiltBug[] {
  const folders = bugFolders(dir);
  const kept = folders.filter((id) => isUnbuilt(join(dir, id))).map((id) => ({ id, recipe: folderRecipe(dir, id) }));
  const split = readRealSplit(dir);
  const named = split ? [...split.tuning.bugs, ...split.heldOut.bugs] : [];
  const absent = named.filter((id) => !folders.includes(id)).map((id) => ({ id, recipe: undefined }));
  return [...kept, ...absent].sort((a, b) => a.id.localeCompare(b.id));
}

export interface Selection {
  /** `--half` as given: the tuning half unless it says held-out. */
  half?: string | undefined;
  /** Both halves (bench:real:check: is every bug sound). */
  bothHalves?: boolean;
  /** The script's own filter (its --filter, its runner). */
  match?: (bug: UnbuiltBug) => boolean;
}

/** The lines saying which bugs of a script's selection it skips, not built here, and how to build them. */
export function unbuiltNotice(dir: string, selection: Selection): string[] {
  const heldOut = halfOf(selection.half) === 'held-out';
  const split = readRealSplit(dir);
  const selected = (bug: UnbuiltBug) =>
    (selection.bothHalves || isHeldOut(split, { id: bug.id, project: bug.recipe?.project }) === heldOut) &&
    (selection.match?.(bug) ?? true);
  const chosen = unbuiltRealBugs(dir).filter(selected);
  const unrecorded = bugFolders(dir)
    .filter((id) => !isUnbuilt(join(dir, id)) && isUnrecorded(join(dir, id)))
    .filter((id) => selected({ id, recipe: folderRecipe(dir, id) }));
  const lines = chosen.flatMap(({ id, recipe }) =>
    recipe
      ? [
          `skip ${id}: not built here; npm run bench:real:build -- bench/real/${id}/recipe.json builds it ` +
            `(needs ${recipe.project}'s repository, fetched into /work/.mirror or given with --mirrors)`,
        ]
      : [],
  );
  for (const id of unrecorded)
    lines.push(
      `skip ${id}: its failing tests are not recorded yet (a build under way, or npm run bench:real:check records them)`,
    );
  const absent = chosen.filter((bug) => !bug.recipe).map((bug) => bug.id);
  if (absent.length > 0)
    lines.push(
      `skip ${absent.length} bug(s) not built here, known only by split.json (a built bug's code and recipe ` +
        `stay on the machine that built it: bench/real/README.md): ${absent.join(', ')}`,
    );
  return lines;
}

/** Prints `unbuiltNotice`, one line each, before a script runs the bugs it has. */
export function reportUnbuilt(dir: string, selection: Selection): void {
  for (const line of unbuiltNotice(dir, selection)) console.log(line);
}
