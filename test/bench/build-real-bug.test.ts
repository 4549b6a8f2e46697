import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bugRecipeSchema, changeKind, readRecipes, trimmed } from '../../bench/lib/real-recipe.ts';
import { checkOut, detectLicense, diffOf, editManifest, pack, readFix, trimFiles } from '../../bench/lib/real-snapshot.ts';

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `build-real-${label}-`));
  made.push(dir);
  return dir;
}

const MIT = 'MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\n';
const recipe = (extra: Record<string, unknown> = {}) =>
  bugRecipeSchema.parse({
    project: 'someone/lib',
    language: 'javascript',
    runner: 'mocha',
    setup: 'npm install',
    test: 'npx mocha',
    id: 'lib-01',
    fix: 'abcdef0',
    ...extra,
  });

/** A bare repository with a buggy commit and its fix (one source line, one test, a changelog line). */
function repository(): { bare: string; fix: string } {
  const work = tempDir('work');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: work, encoding: 'utf8' }).trim();
  git('init', '-q');
  const files: Record<string, string> = {
    LICENSE: MIT,
    'CHANGELOG.md': '# changes\n',
    '.github/workflows/ci.yml': 'on: push\n',
    'package.json': JSON.stringify(
      { name: 'lib', scripts: { test: 'mocha', prepare: 'tsc' }, devDependencies: { mocha: '^5', eslint: '^8' }, engines: {} },
      null,
      2,
    ),
    'index.js': 'module.exports = (a, b) => a - b;\n',
    'test/index.js': "it('adds', () => {});\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(work, path, '..'), { recursive: true });
    writeFileSync(join(work, path), text);
  }
  git('add', '-A');
  git('commit', '-qm', 'buggy');
  writeFileSync(join(work, 'index.js'), 'module.exports = (a, b) => a + b;\n');
  writeFileSync(join(work, 'test/index.js'), "it('adds', () => {});\nit('adds two', () => {});\n");
  writeFileSync(join(work, 'CHANGELOG.md'), '# changes\n- fix add\n');
  git('commit', '-qam', 'fix: add');
  const fix = git('rev-parse', 'HEAD');
  const bare = join(tempDir('bare'), 'repo');
  execFileSync('git', ['clone', '-q', '--bare', work, bare]);
  return { bare, fix };
}

describe('real-bug recipes', () => {
  it("merges a project's settings under each bug's own, before defaults apply", () => {
    const path = join(tempDir('recipe'), 'r.json');
    const shared = { project: 'a/b', language: 'python', runner: 'pytest', setup: '', test: 'pytest', keep: ['^docs/'] };
    writeFileSync(
      path,
      JSON.stringify({
        ...shared,
        bugs: [
          { id: 'b-01', fix: 'abcdef0' },
          { id: 'b-02', fix: 'abcdef1', keep: [] },
        ],
      }),
    );
    const [first, second] = readRecipes(path);
    expect(first?.keep).toEqual(['^docs/']);
    expect(second?.keep).toEqual([]);
    expect(first?.maxFixLines).toBe(5);
  });

  it('sorts changed paths into tests, source and neither', () => {
    expect(changeKind(recipe(), 'test/parse.js')).toBe('test');
    expect(changeKind(recipe(), 'src/parse.spec.ts')).toBe('test');
    expect(changeKind(recipe(), 'tests/test_parse.py')).toBe('test');
    expect(changeKind(recipe(), 'test.js')).toBe('test');
    expect(changeKind(recipe(), 'CHANGELOG.md')).toBe('ignored');
    expect(changeKind(recipe(), 'tox.ini')).toBe('ignored');
    expect(changeKind(recipe({ ignorePaths: ['^setup\\.cfg$'] }), 'setup.cfg')).toBe('ignored');
    expect(changeKind(recipe(), 'lib/parse.js')).toBe('source');
  });

  it('trims CI, lockfiles and docs unless kept, and what the recipe names', () => {
    expect(trimmed(recipe(), '.github/workflows/ci.yml')).toBe(true);
    expect(trimmed(recipe(), 'package-lock.json')).toBe(true);
    expect(trimmed(recipe(), 'docs/helpers.py')).toBe(true);
    expect(trimmed(recipe({ keep: ['^docs/'] }), 'docs/helpers.py')).toBe(false);
    expect(trimmed(recipe({ trim: ['^bench\\.mjs$'] }), 'bench.mjs')).toBe(true);
    expect(trimmed(recipe(), 'test/fixtures/package-lock.json')).toBe(false);
  });
});

describe('real-bug snapshots', () => {
  const { bare, fix } = repository();

  it("takes the fix's source change as the reference and its tests into the parent's tree", () => {
    const found = readFix(bare, recipe({ fix }));
    expect(found).toMatchObject({ fix, source: ['index.js'], tests: ['test/index.js'], added: 1, removed: 1 });
    expect(diffOf(bare, found, found.source)).toContain('+module.exports = (a, b) => a + b;');
    const dir = tempDir('snap');
    checkOut(bare, found, dir);
    expect(readFileSync(join(dir, 'index.js'), 'utf8')).toContain('a - b');
    expect(readFileSync(join(dir, 'test/index.js'), 'utf8')).toContain('adds two');
    expect(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8')).not.toContain('fix add');
  });

  it('drops the files, devDependencies, hooks and fields the recipe leaves out, and says which', () => {
    const dir = tempDir('trim');
    checkOut(bare, readFix(bare, recipe({ fix })), dir);
    expect(trimFiles(recipe(), dir)).toEqual(['.github/workflows/ci.yml', 'CHANGELOG.md']);
    const manifest = editManifest(recipe({ pin: { mocha: '10.8.2', chai: '4.5.0' } }), dir);
    expect(manifest).toEqual({
      devDependencies: ['eslint', 'mocha'],
      scripts: ['prepare'],
      fields: ['engines'],
      added: ['chai@4.5.0'],
    });
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg).toMatchObject({ devDependencies: { chai: '4.5.0', mocha: '10.8.2' }, scripts: { test: 'mocha' } });
    expect(pkg).not.toHaveProperty('engines');
    expect(detectLicense(dir)).toEqual({ file: 'LICENSE', license: 'MIT' });
  });

  it('packs the same files into the same bytes', () => {
    const dir = tempDir('pack');
    checkOut(bare, readFix(bare, recipe({ fix })), dir);
    const out = tempDir('out');
    pack(dir, join(out, 'a.tar.gz'));
    pack(dir, join(out, 'b.tar.gz'));
    expect(readFileSync(join(out, 'a.tar.gz')).equals(readFileSync(join(out, 'b.tar.gz')))).toBe(true);
    const listed = execFileSync('tar', ['-tvzf', join(out, 'a.tar.gz')], { encoding: 'utf8' });
    expect(listed).toContain('0/0');
    expect(listed).toContain('1970-01-01');
  });
});
