// How a real bug is built from a project's history (bench/build-real-bug.ts): a recipe names the
// repository, the fix commit, how the tests run, and what to leave out of the snapshot. A recipe
// file is one project's settings with its bugs under `bugs`, each bug able to override any setting;
// the builder keeps each bug's own, merged recipe as bench/real/<id>/recipe.json, so that one file
// rebuilds the folder.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { realBugSchema, RUNNERS } from './real-corpus.ts';

const settings = z.object({
  /** owner/name on GitHub. */
  project: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  language: z.enum(['javascript', 'typescript', 'python']),
  runner: z.enum(RUNNERS),
  setup: z.string(),
  test: z.string().min(1),
  /** The license as the schema names it, when the LICENSE file's text alone does not tell. */
  license: realBugSchema.shape.license.optional(),
  /** Which of the fix's changed paths are test changes (regular expressions); the default knows the usual layouts. */
  testPaths: z.array(z.string()).optional(),
  /** Changed paths that are neither source nor tests, beside the default list (docs, changelogs): left as at the parent. */
  ignorePaths: z.array(z.string()).default([]),
  /** Files left out of the snapshot (regular expressions on the path), beside the default list. */
  trim: z.array(z.string()).default([]),
  /** Files the default list would leave out but the tests need. */
  keep: z.array(z.string()).default([]),
  /** devDependencies kept (all others dropped); `*` keeps them all. */
  keepDev: z.array(z.string()).default([]),
  /** Versions set for dependencies (the test runner pinned to one that runs on Node 24), added when absent. */
  pin: z.record(z.string(), z.string()).default({}),
  /** dependencies dropped (only what the tests do not load). */
  dropDependencies: z.array(z.string()).default([]),
  /** package.json scripts dropped beside the lifecycle ones that would run build or lint tools. */
  dropScripts: z.array(z.string()).default([]),
  /** package.json fields dropped beside `engines` and `packageManager`. */
  dropFields: z.array(z.string()).default([]),
  /** A fix that adds or removes more source lines than this is refused (a bug is a small fix; the corpus's test holds it to 5). */
  maxFixLines: z.number().int().positive().default(5),
  note: z.string().default(''),
});

export const bugRecipeSchema = settings.extend({
  id: realBugSchema.shape.id,
  /** The fix commit (full or abbreviated); its first parent is the buggy version. */
  fix: z.string().regex(/^[0-9a-f]{7,40}$/),
});

export type BugRecipe = z.infer<typeof bugRecipeSchema>;

/** The bugs a recipe file describes: one bug's recipe, or a project's settings with its bugs under `bugs`. */
export function readRecipes(path: string): BugRecipe[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const { bugs, ...shared } = raw;
  // Each bug's settings are merged over the project's before defaults apply, so a default never hides a shared one.
  const entries = Array.isArray(bugs) ? (bugs as Record<string, unknown>[]).map((bug) => ({ ...shared, ...bug })) : [raw];
  return entries.map((entry, i) => {
    const parsed = bugRecipeSchema.safeParse(entry);
    if (!parsed.success)
      throw new Error(`${path} bug ${i}: ${parsed.error.issues.map((e) => `${e.path.join('.')}: ${e.message}`).join('; ')}`);
    return parsed.data;
  });
}

// Test changes: a test folder anywhere, or a file named as a test by the usual conventions.
const DEFAULT_TEST_PATHS = [
  String.raw`(^|/)(tests?|__tests__|specs?|testing)/`,
  String.raw`\.(test|spec)\.[cm]?[jt]sx?$`,
  String.raw`(^|/)test\.[cm]?[jt]s$`,
  String.raw`(^|/)test_[^/]*\.py$`,
  String.raw`_test\.py$`,
];

// Changes that are neither: prose, release notes, CI, lockfiles, generated bundles and typings.
const DEFAULT_IGNORE_PATHS = [
  String.raw`(^|/)(CHANGELOG|CHANGES|HISTORY|NEWS|README|AUTHORS|CONTRIBUTORS)[^/]*$`,
  String.raw`^docs?/`,
  String.raw`\.(md|rst|txt)$`,
  String.raw`^\.github/`,
  String.raw`(^|/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml)$`,
  String.raw`^dist/`,
  String.raw`^\.changeset/`,
  String.raw`^(tox\.ini|\.spell-dict|\.travis\.yml|\.gitignore|mkdocs\.yml)$`,
];

export type ChangeKind = 'test' | 'source' | 'ignored';

/** Whether a path the fix changed is a test, the source, or neither. */
export function changeKind(recipe: BugRecipe, path: string): ChangeKind {
  const matches = (patterns: string[]) => patterns.some((p) => new RegExp(p).test(path));
  if (matches(recipe.testPaths ?? DEFAULT_TEST_PATHS)) return 'test';
  if (matches([...DEFAULT_IGNORE_PATHS, ...recipe.ignorePaths])) return 'ignored';
  return 'source';
}

// Files a test run does not need: CI and editor settings, lint and format configs, lockfiles,
// release notes, docs and benchmarks (all at the project's root).
const DEFAULT_TRIM = [
  String.raw`^\.github/`,
  String.raw`^\.(husky|vscode|devcontainer|idea|changeset)/`,
  String.raw`^(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|npm-shrinkwrap\.json)$`,
  String.raw`^(CHANGELOG|CHANGES|HISTORY|NEWS)(\.\w+)?$`,
  String.raw`^\.editorconfig$`,
  String.raw`^\.eslint(rc(\.\w+)?|ignore)$`,
  String.raw`^eslint\.config\.\w+$`,
  String.raw`^\.prettier(rc(\.\w+)?|ignore)$`,
  String.raw`^\.(travis|gitlab-ci)\.yml$`,
  String.raw`^appveyor\.yml$`,
  String.raw`^renovate\.json5?$`,
  String.raw`^\.?codecov\.ya?ml$`,
  String.raw`^\.pre-commit-config\.yaml$`,
  String.raw`^\.readthedocs\.ya?ml$`,
  String.raw`^docs?/`,
  String.raw`^benchmarks?/`,
];

/** Whether the snapshot leaves this file out. */
export function trimmed(recipe: BugRecipe, path: string): boolean {
  const matches = (patterns: string[]) => patterns.some((p) => new RegExp(p).test(path));
  if (matches(recipe.trim)) return true;
  return matches(DEFAULT_TRIM) && !matches(recipe.keep);
}
