// The parts of a real bug taken from a bare git repository: the fix's source and test changes as
// patches, the project's files at the parent with the fix's tests, trimmed, and packed the same way
// every time (files sorted, no dates or owners), so a rebuild gives the same archive.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { changeKind, trimmed, type BugRecipe } from './real-recipe.ts';
import type { RealBug } from './real-corpus.ts';

export function git(repo: string, args: string[], input?: Buffer): Buffer {
  return execFileSync('git', ['--git-dir', repo, ...args], { maxBuffer: 256 * 2 ** 20, ...(input ? { input } : {}) });
}

const text = (repo: string, args: string[]) => git(repo, args).toString('utf8');

export interface FixCommit {
  fix: string;
  parent: string;
  date: string;
  subject: string;
  source: string[];
  tests: string[];
  /** The fix's changed source lines. */
  added: number;
  removed: number;
}

/** The fix, its first parent, and its changed paths sorted into source and tests. */
export function readFix(repo: string, recipe: BugRecipe): FixCommit {
  const fix = text(repo, ['rev-parse', '--verify', `${recipe.fix}^{commit}`]).trim();
  const parent = text(repo, ['rev-parse', '--verify', `${fix}^1`]).trim();
  const [date = '', subject = ''] = text(repo, ['show', '-s', '--format=%as%x00%s', fix]).trim().split('\0');
  const source: string[] = [];
  const tests: string[] = [];
  let added = 0;
  let removed = 0;
  for (const line of text(repo, ['diff', '--numstat', '--no-renames', parent, fix]).split('\n').filter(Boolean)) {
    const [plus = '0', minus = '0', path = ''] = line.split('\t');
    const kind = changeKind(recipe, path);
    if (kind === 'test') tests.push(path);
    if (kind !== 'source') continue;
    source.push(path);
    added += Number(plus) || 0;
    removed += Number(minus) || 0;
  }
  return { fix, parent, date, subject, source, tests, added, removed };
}

/** The textual diff of some paths between the parent and the fix. */
export function diffOf(repo: string, fix: FixCommit, paths: string[]): string {
  return text(repo, ['diff', '--no-color', '--no-ext-diff', '--no-renames', '--binary', fix.parent, fix.fix, '--', ...paths]);
}

/** Unpacks the parent's tree into `dir` and puts the fix's version of every test file in place. */
export function checkOut(repo: string, fix: FixCommit, dir: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-x', '-C', dir], { input: git(repo, ['archive', '--format=tar', fix.parent]) });
  const atFix = new Set(text(repo, ['ls-tree', '-r', '--name-only', fix.fix, '--', ...fix.tests]).split('\n'));
  for (const path of fix.tests) {
    rmSync(join(dir, path), { force: true });
    if (!atFix.has(path)) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), git(repo, ['show', `${fix.fix}:${path}`]));
  }
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** Removes the files the recipe leaves out (and folders left empty); returns their paths. */
export function trimFiles(recipe: BugRecipe, dir: string): string[] {
  const gone = listFiles(dir).filter((path) => trimmed(recipe, path));
  for (const path of gone) rmSync(join(dir, path));
  for (const folder of readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(e.parentPath, e.name))
    .sort((a, b) => b.length - a.length)) {
    if (readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
  }
  return gone;
}

type Trimmed = RealBug['trimmed'];
type Manifest = Record<string, unknown> & {
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

// Lifecycle scripts npm runs on install, pack or test: they would run the build and lint tools dropped.
const LIFECYCLE = ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish', 'prepublishOnly', 'prepack', 'postpack'];
const TEST_HOOKS = ['pretest', 'posttest'];

/** Rewrites package.json as the recipe says: devDependencies kept or pinned, hooks and fields dropped. */
export function editManifest(recipe: BugRecipe, dir: string): Omit<Trimmed, 'files'> {
  const path = join(dir, 'package.json');
  if (!existsSync(path)) return {};
  const source = readFileSync(path, 'utf8');
  const pkg = JSON.parse(source) as Manifest;
  const dev = { ...pkg.devDependencies };
  const dropped = recipe.keepDev.includes('*') ? [] : Object.keys(dev).filter((name) => !recipe.keepDev.includes(name));
  for (const name of dropped) delete dev[name];
  const deps = { ...pkg.dependencies };
  const droppedDeps = recipe.dropDependencies.filter((name) => name in deps);
  for (const name of droppedDeps) delete deps[name];
  const added: string[] = [];
  for (const [name, version] of Object.entries(recipe.pin)) {
    if (name in deps) deps[name] = version;
    else {
      if (!(name in (pkg.devDependencies ?? {}))) added.push(`${name}@${version}`);
      dev[name] = version;
    }
  }
  const scripts = { ...pkg.scripts };
  const droppedScripts = [...LIFECYCLE, ...TEST_HOOKS, ...recipe.dropScripts].filter((name) => name in scripts);
  for (const name of droppedScripts) delete scripts[name];
  const fields = ['engines', 'packageManager', ...recipe.dropFields].filter((name) => name in pkg);
  for (const name of fields) delete pkg[name];
  if (pkg.devDependencies || Object.keys(dev).length) pkg.devDependencies = sortKeys(dev);
  if (pkg.dependencies) pkg.dependencies = deps;
  if (pkg.scripts) pkg.scripts = scripts;
  const indent = /^\{\n([ \t]+)"/.exec(source)?.[1] ?? '  ';
  writeFileSync(path, `${JSON.stringify(pkg, null, indent)}\n`);
  return {
    devDependencies: dropped.sort(),
    ...(droppedDeps.length ? { dependencies: droppedDeps.sort() } : {}),
    scripts: droppedScripts,
    ...(fields.length ? { fields } : {}),
    ...(added.length ? { added } : {}),
  };
}

const sortKeys = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/** Packs `dir` into a gzipped tar whose bytes depend on its files alone. */
export function pack(dir: string, archive: string): void {
  const list = listFiles(dir).join('\n');
  const tar = execFileSync(
    'tar',
    ['-c', '-C', dir, '--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '--format=gnu', '-T', '-'],
    { input: list, maxBuffer: 256 * 2 ** 20 },
  );
  writeFileSync(archive, execFileSync('gzip', ['-n', '-9'], { input: tar, maxBuffer: 256 * 2 ** 20 }));
}

const LICENSE_FILE = /^(LICEN[CS]E|COPYING)(\.(md|txt|rst))?$/i;

/** The license file at the root and the license its text grants (only the schema's permissive ones). */
export function detectLicense(dir: string): { file: string; license: RealBug['license'] } | null {
  const file = readdirSync(dir).find((name) => LICENSE_FILE.test(name));
  if (!file) return null;
  const body = readFileSync(join(dir, file), 'utf8').replace(/\s+/g, ' ');
  if (/Apache License,? Version 2\.0/i.test(body)) return { file, license: 'Apache-2.0' };
  if (/Permission is hereby granted, free of charge/i.test(body)) return { file, license: 'MIT' };
  if (/Permission to use, copy, modify, and\/or distribute/i.test(body)) return { file, license: 'ISC' };
  if (/Redistribution and use in source and binary forms/i.test(body))
    return { file, license: /endorse or promote/i.test(body) ? 'BSD-3-Clause' : 'BSD-2-Clause' };
  return null;
}
