// The real-bug corpus: one folder per bug under bench/real/, taken from a real project's history.
//
//   bench/real/<id>/meta.json        where it comes from (repository, fix and parent commits, license),
//                                    how to run it (setup, test), the tests that fail before the fix
//   bench/real/<id>/snapshot.tar.gz  the project's files at the fix's parent, with the fix's test
//                                    changes applied (no dependencies: `setup` installs them)
//   bench/real/<id>/fix.patch        the upstream fix of the source (the reference)
//   bench/real/<id>/tests.patch      the upstream test changes already applied in the snapshot (to read)
//   bench/real/<id>/recipe.json      how bench/build-real-bug.ts built it (the bugs it built)
//
// The bugs bench/build-real-bug.ts builds are never committed (bench/real/README.md): their code is
// the project's own, brought by fetch, so a checkout holds them only where they were built. A folder
// with its recipe and no snapshot is a bug not built here (real-unbuilt.ts): the corpus leaves it out.
//
// Snapshots are archives, not plain files, so this repository's own TypeScript, lint and test
// configuration never picks up a project's sources or tests, and its .gitignore drops none of them.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { z } from 'zod';

/** Projects reserved for independent evaluation: never part of this corpus (see the common rules). */
export const RESERVED_PROJECTS = [
  /quixbugs/i,
  /humanevalfix/i,
  /bugsjs/i,
  /defects4j/i,
  /bugsinpy/i,
  /more-itertools/i,
  /hessian\.js/i,
  /github\.com\/(expressjs|jshttp|pillarjs)\//i,
  // BugsJS's projects
  /\/(bower|eslint|express|karma|mongoose|node-redis|pencilblue|shields|hexo)$/i,
  // BugsInPy's projects
  /\/(ansible|black|cookiecutter|fastapi|httpie|keras|luigi|matplotlib|pandas|pysnooper|sanic|scrapy|spacy|thefuck|tornado|tqdm|youtube-dl)$/i,
];

export const RUNNERS = ['mocha', 'jest', 'vitest', 'node-test', 'pytest'] as const;

export const realBugSchema = z.object({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*-\d{2}$/, 'an id is the project in kebab case and a two-digit number'),
  project: z.string().min(1),
  repository: z.string().regex(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/),
  license: z.enum(['MIT', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause', 'Apache-2.0']),
  licenseFile: z.string().min(1),
  fixCommit: z.string().regex(/^[0-9a-f]{40}$/),
  parentCommit: z.string().regex(/^[0-9a-f]{40}$/),
  fixDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  fixSubject: z.string(),
  language: z.enum(['javascript', 'typescript', 'python']),
  runner: z.enum(RUNNERS),
  setup: z.string(),
  test: z.string().min(1),
  /** Test ids (as fixloop's report parser names them) that fail at the parent and pass with the fix. */
  failing: z.array(z.string().min(1)).min(1),
  referenceFix: z.object({
    patch: z.literal('fix.patch'),
    files: z.array(z.string()).min(1),
    added: z.number().int().min(0),
    removed: z.number().int().min(0),
  }),
  upstreamTests: z.object({ patch: z.literal('tests.patch'), files: z.array(z.string()).min(1) }),
  /** What was left out of the snapshot so that it installs from the npm registry alone and runs offline. */
  trimmed: z.object({
    files: z.array(z.string()),
    devDependencies: z.array(z.string()).optional(),
    dependencies: z.array(z.string()).optional(),
    scripts: z.array(z.string()).optional(),
    fields: z.array(z.string()).optional(),
    added: z.array(z.string()).optional(),
  }),
  /**
   * How a plausible patch is judged correct: a patch whose source equals the upstream fix is; any
   * other one by the hand judgements below (keyed by the patch's normalized hash), else "unjudged".
   */
  judgements: z
    .array(z.object({ patchHash: z.string().regex(/^[0-9a-f]{16}$/), correct: z.boolean(), reason: z.string().min(5) }))
    .default([]),
  note: z.string(),
});

export type RealBug = z.infer<typeof realBugSchema> & { dir: string };

/** The bug folders under `dir`, built or not, sorted. */
export function bugFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** A folder with the recipe that builds its bug but not the code: the bug is not built on this machine. */
export function isUnbuilt(bugDir: string): boolean {
  return existsSync(join(bugDir, 'recipe.json')) && !existsSync(join(bugDir, 'snapshot.tar.gz'));
}

/**
 * The bugs built here; `unrecorded` accepts bugs whose failing tests are still to be recorded (by the
 * checker). A folder without a recipe must be whole: nothing could build it again.
 */
export function loadRealCorpus(dir: string, unrecorded = false): RealBug[] {
  return bugFolders(dir)
    .filter((name) => !isUnbuilt(join(dir, name)) && (unrecorded || !isUnrecorded(join(dir, name))))
    .map((name) => loadRealBug(join(dir, name), unrecorded));
}

/**
 * A folder the builder made whose failing tests are not recorded yet: a build under way (its check
 * runs the suite for minutes) or one never checked. A script that runs bugs skips it, as it skips one
 * not built, rather than stop on it; the checker records them.
 */
export function isUnrecorded(bugDir: string): boolean {
  const metaPath = join(bugDir, 'meta.json');
  if (!existsSync(join(bugDir, 'recipe.json'))) return false;
  if (!existsSync(metaPath)) return true;
  const failing = (JSON.parse(readFileSync(metaPath, 'utf8')) as { failing?: unknown }).failing;
  return !Array.isArray(failing) || failing.length === 0;
}

/** One bug's folder, read and validated as the corpus reads it. */
export function loadRealBug(bugDir: string, unrecorded = false): RealBug {
  const schema = unrecorded ? realBugSchema.extend({ failing: z.array(z.string()) }) : realBugSchema;
  const metaPath = join(bugDir, 'meta.json');
  if (!existsSync(metaPath)) throw new Error(`${bugDir}: no meta.json`);
  const parsed = schema.safeParse(JSON.parse(readFileSync(metaPath, 'utf8')));
  if (!parsed.success)
    throw new Error(`${metaPath}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  if (parsed.data.id !== basename(bugDir)) throw new Error(`${metaPath}: id ${parsed.data.id} does not match the folder`);
  for (const file of ['snapshot.tar.gz', 'fix.patch', 'tests.patch']) {
    if (!existsSync(join(bugDir, file))) throw new Error(`${bugDir}: no ${file}`);
  }
  return { ...parsed.data, dir: bugDir };
}

export function isReserved(repository: string): boolean {
  return RESERVED_PROJECTS.some((pattern) => pattern.test(repository));
}

/** The snapshot's file names, read from the archive without unpacking it. */
export function snapshotFiles(bug: RealBug): string[] {
  return execFileSync('tar', ['-tzf', join(bug.dir, 'snapshot.tar.gz')], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 })
    .split('\n')
    .filter(Boolean);
}

/** Unpacks the snapshot into a fresh temp folder; with `fixed`, the upstream fix is applied too. */
export function materializeReal(bug: RealBug, label: string, fixed = false): string {
  const dir = mkdtempSync(join(tmpdir(), `fixloop-real-${label}-`));
  execFileSync('tar', ['-xzf', join(bug.dir, 'snapshot.tar.gz'), '-C', dir]);
  if (fixed) applyPatch(dir, readFileSync(join(bug.dir, 'fix.patch'), 'utf8'));
  return dir;
}

export function applyPatch(dir: string, patch: string): void {
  // The folder is no git repository: keep git from looking for one above it.
  execFileSync('git', ['apply', '--whitespace=nowarn', '-'], {
    cwd: dir,
    input: patch,
    env: { ...process.env, GIT_CEILING_DIRECTORIES: join(dir, '..') },
  });
}

/** A patch's hash that ignores its index lines, hunk offsets and trailing blanks (for hand judgements). */
export function patchHash(patch: string): string {
  const lines = patch
    .split('\n')
    .filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) /.test(l))
    .map((l) => l.trimEnd());
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16);
}

/**
 * The `patchHash` of a candidate that changes one block of
 * lines: its removed then its added lines, as git prints one hunk.
 */
export function candidatePatchHash(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.slice(head, a.length - tail).map((l) => `-${l}`);
  const added = b.slice(head, b.length - tail).map((l) => `+${l}`);
  return patchHash(['--- a/f', '+++ b/f', ...removed, ...added].join('\n'));
}

// What in package.json decides what `npm install` puts in node_modules: a version bump or a new
// script between two bugs of a project does not call for another install.
const INSTALL_FIELDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'bundleDependencies',
  'bundledDependencies',
  'overrides',
  'workspaces',
];
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

function installManifest(dir: string): string {
  const path = join(dir, 'package.json');
  if (!existsSync(path)) return '';
  const pkg = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> & { scripts?: Record<string, string> };
  const scripts = INSTALL_SCRIPTS.map((name) => pkg.scripts?.[name] ?? '');
  return JSON.stringify([pkg.name ?? '', ...INSTALL_FIELDS.map((field) => pkg[field] ?? null), scripts]);
}

/** The folder where a bug's dependencies were installed once, keyed by what decides them. */
function installCacheDir(bug: RealBug, dir: string): string {
  const requirements = join(dir, 'requirements.txt');
  const manifest = [installManifest(dir), existsSync(requirements) ? readFileSync(requirements, 'utf8') : ''].join('\0');
  const key = createHash('sha256').update(`${bug.setup}\0${manifest}`).digest('hex').slice(0, 12);
  return join(
    process.env.FIXLOOP_REAL_CACHE ?? join(tmpdir(), 'fixloop-real-cache'),
    `${bug.project.replace(/\W+/g, '-')}-${key}`,
  );
}

/**
 * Runs the bug's setup in `dir`, reusing an earlier install of the same manifest: the first run
 * installs and keeps node_modules aside, later runs copy it in (a rerun of the checks takes seconds).
 */
export async function setUp(
  bug: RealBug,
  dir: string,
  run: (command: string, cwd: string) => Promise<{ code: number | null; stdout: string; stderr: string }>,
): Promise<string | null> {
  if (!bug.setup) return null;
  // Only a setup that does nothing but install into node_modules can be replaced by a copy of it.
  if (!/^npm (install|ci)\b[^&|;]*$/.test(bug.setup)) {
    const result = await run(bug.setup, dir);
    return result.code === 0
      ? null
      : `setup "${bug.setup}" failed (exit ${result.code}):\n${result.stdout.slice(-1500)}${result.stderr.slice(-1500)}`;
  }
  const cache = installCacheDir(bug, dir);
  if (existsSync(join(cache, 'node_modules'))) {
    cpSync(join(cache, 'node_modules'), join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    return null;
  }
  const result = await run(bug.setup, dir);
  if (result.code !== 0)
    return `setup "${bug.setup}" failed (exit ${result.code}):\n${result.stdout.slice(-1500)}${result.stderr.slice(-1500)}`;
  if (existsSync(join(dir, 'node_modules'))) {
    mkdirSync(cache, { recursive: true });
    const staging = mkdtempSync(join(cache, 'staging-'));
    cpSync(join(dir, 'node_modules'), join(staging, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    renameSync(join(staging, 'node_modules'), join(cache, 'node_modules'));
    rmSync(staging, { recursive: true, force: true });
  }
  return null;
}
