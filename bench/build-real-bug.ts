// Builds real bugs (bench/real/<id>/) from a project's history in a bare git repository, and checks
// each as bench:real:check does: the snapshot's tests fail (the same ones on two runs), the upstream
// fix makes every test pass. A bug that is not sound is not kept.
// Run: npm run bench:real:build -- <recipe.json> [--only <id>[,<id>...]] [--mirrors <dir>] [--keep] [--no-check]
//   <recipe.json>  one bug's recipe (bench/real/<id>/recipe.json rebuilds that bug) or a project's
//                  recipe with its bugs (bench/lib/real-recipe.ts says what a recipe holds)
//   --mirrors      where the bare repositories are, as <dir>/<owner>+<name>/repo (default /work/.mirror)
//   --keep         keep a folder that failed its check, to look at
//   --no-check     write the folders without running their tests
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { args, flag } from './lib/args.ts';
import { compare, observe } from './lib/real-check.ts';
import { isReserved, loadRealBug } from './lib/real-corpus.ts';
import { readRecipes, type BugRecipe } from './lib/real-recipe.ts';
import { checkOut, detectLicense, diffOf, editManifest, pack, readFix, trimFiles } from './lib/real-snapshot.ts';

const realDir = fileURLToPath(new URL('./real', import.meta.url));
const mirrors = flag('--mirrors') ?? '/work/.mirror';
const only = flag('--only')?.split(',');
const recipePath = args.find((a, i) => !a.startsWith('--') && !['--only', '--mirrors'].includes(args[i - 1] ?? ''));
/** A suite slower than this (seconds) on the snapshot is refused: the bench runs it many times. */
const MAX_SUITE_SECONDS = 90;

/** Writes the bug's folder; returns its id, or throws saying why the recipe does not make a bug. */
function write(recipe: BugRecipe): string {
  const repository = `https://github.com/${recipe.project}`;
  if (isReserved(repository)) throw new Error(`${recipe.project} is reserved for independent evaluation`);
  const repo = join(mirrors, recipe.project.replace('/', '+'), 'repo');
  const fix = readFix(repo, recipe);
  if (fix.source.length === 0 || fix.source.length > 2)
    throw new Error(
      `the fix changes ${fix.source.length} source files (${fix.source.join(', ')}); a bug's fix changes one or two`,
    );
  if (fix.tests.length === 0) throw new Error('the fix changes no test');
  if (Math.max(fix.added, fix.removed) > recipe.maxFixLines)
    throw new Error(`the fix adds ${fix.added} and removes ${fix.removed} source lines, more than ${recipe.maxFixLines}`);
  const work = mkdtempSync(join(tmpdir(), `fixloop-build-${recipe.id}-`));
  try {
    checkOut(repo, fix, work);
    const found = detectLicense(work);
    if (!found) throw new Error('no license file of a permissive license at the root');
    const license = recipe.license ?? found.license;
    const files = trimFiles(recipe, work);
    const manifest = editManifest(recipe, work);
    const dir = join(realDir, recipe.id);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    pack(work, join(dir, 'snapshot.tar.gz'));
    writeFileSync(join(dir, 'fix.patch'), diffOf(repo, fix, fix.source));
    writeFileSync(join(dir, 'tests.patch'), diffOf(repo, fix, fix.tests));
    const meta = {
      id: recipe.id,
      project: recipe.project,
      repository,
      license,
      licenseFile: found.file,
      fixCommit: fix.fix,
      parentCommit: fix.parent,
      fixDate: fix.date,
      fixSubject: fix.subject,
      language: recipe.language,
      runner: recipe.runner,
      setup: recipe.setup,
      test: recipe.test,
      failing: [] as string[],
      referenceFix: { patch: 'fix.patch', files: fix.source, added: fix.added, removed: fix.removed },
      upstreamTests: { patch: 'tests.patch', files: fix.tests },
      trimmed: { files, ...manifest },
      judgements: [],
      note: recipe.note,
    };
    writeFileSync(join(dir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
    writeFileSync(join(dir, 'recipe.json'), `${JSON.stringify({ ...recipe, fix: fix.fix }, null, 2)}\n`);
    return recipe.id;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Runs the bug's tests three times (the snapshot twice, the fix once); records the failing tests when sound. */
async function check(id: string): Promise<string[]> {
  const bug = loadRealBug(join(realDir, id), true);
  const first = await observe(bug, false);
  if (typeof first === 'string') return [first];
  const second = await observe(bug, false);
  if (typeof second === 'string') return [second];
  const fixed = await observe(bug, true);
  if (typeof fixed === 'string') return [fixed];
  const failing = [...new Set(first.failed)];
  const errors = compare(first, fixed, failing);
  const again = [...new Set(second.failed)];
  if (again.length !== failing.length || again.some((t) => !failing.includes(t)))
    errors.push(`the snapshot's failures differ between two runs: ${failing.join(', ')} / ${again.join(', ')}`);
  if (first.seconds > MAX_SUITE_SECONDS) errors.push(`the suite ran ${first.seconds.toFixed(0)} s`);
  if (errors.length) return errors;
  const path = join(bug.dir, 'meta.json');
  const meta = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  meta.failing = failing;
  writeFileSync(path, `${JSON.stringify(meta, null, 2)}\n`);
  console.log(`ok   ${id} (${first.seconds.toFixed(1)} s; ${failing.length} failing: ${failing.join('; ').slice(0, 200)})`);
  return [];
}

if (!recipePath)
  throw new Error('usage: build-real-bug.ts <recipe.json> [--only <id>,...] [--mirrors <dir>] [--keep] [--no-check]');
const recipes = readRecipes(recipePath).filter((r) => !only || only.includes(r.id));
let problems = 0;
for (const recipe of recipes) {
  let errors: string[];
  try {
    write(recipe);
    errors = args.includes('--no-check') ? [] : await check(recipe.id);
  } catch (error) {
    errors = [error instanceof Error ? error.message : String(error)];
  }
  if (!errors.length) continue;
  problems++;
  console.log(`FAIL ${recipe.id}\n  ${errors.join('\n  ')}`);
  if (!args.includes('--keep')) rmSync(join(realDir, recipe.id), { recursive: true, force: true });
}
console.log(`\n${recipes.length - problems} built, ${problems} failed`);
process.exitCode = problems || recipes.length === 0 ? 1 : 0;
