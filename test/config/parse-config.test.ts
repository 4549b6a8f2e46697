import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyOverrides } from '../../src/config/apply-overrides.ts';
import { ConfigError } from '../../src/config/config-error.ts';
import { loadConfigFile } from '../../src/config/load-config-file.ts';
import { parseRepoConfig, validateRepoConfig } from '../../src/config/parse-config.ts';
import { ALWAYS_PROTECTED_PATHS, DEFAULT_PROTECTED_PATHS, defaultRepoConfig } from '../../src/core/repo-config.ts';

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('parseRepoConfig', () => {
  it('fills every default from an empty file', () => {
    const config = parseRepoConfig('', 'fixloop.yml');
    expect(config).toEqual(defaultRepoConfig());
    expect(config.loop).toEqual({ maxAttempts: 5, maxConsecutiveFailures: 3, timeBudget: 3600, flakyReruns: 3 });
    expect(config.engines).toEqual(['repair']);
    expect(config.paths.protected).toEqual(DEFAULT_PROTECTED_PATHS);
  });

  it('reads nested settings and keeps defaults beside them', () => {
    const config = parseRepoConfig('test:\n  command: npm test\nloop:\n  maxAttempts: 2\n', 'fixloop.yml');
    expect(config.test).toEqual({ command: 'npm test', timeout: 600, evidence: 'per-test' });
    expect(config.loop.maxAttempts).toBe(2);
    expect(config.loop.maxConsecutiveFailures).toBe(3);
  });

  it('names the key and the reason for a wrong type', () => {
    const error = configError(() => parseRepoConfig('loop:\n  maxAttempts: lots\n', '.github/fixloop.yml'));
    expect(error.key).toBe('loop.maxAttempts');
    expect(error.message).toMatch(/^\.github\/fixloop\.yml: `loop\.maxAttempts` \(line 2\): .*expected number/);
  });

  it('names an unknown key', () => {
    const error = configError(() => parseRepoConfig('loop:\n  maxAtempts: 3\n', 'fixloop.yml'));
    expect(error.key).toBe('loop.maxAtempts');
    expect(error.message).toBe('fixloop.yml: unknown key `loop.maxAtempts` (line 2; did you mean `loop.maxAttempts`?)');
  });

  it('suggests the key a slip meant, at the same level, and nothing for a word far from every key', () => {
    expect(configError(() => parseRepoConfig('Test:\n  command: x\n', 'fixloop.yml')).message).toBe(
      'fixloop.yml: unknown key `Test` (line 1; did you mean `test`?)',
    );
    expect(configError(() => parseRepoConfig('paths:\n  protect: [a]\n', 'fixloop.yml')).message).toBe(
      'fixloop.yml: unknown key `paths.protect` (line 2; did you mean `paths.protected`?)',
    );
    expect(configError(() => parseRepoConfig('# settings\nloop: {}\nbanana: 1\n', 'fixloop.yml')).message).toBe(
      'fixloop.yml: unknown key `banana` (line 3)',
    );
  });

  it('names the lines of several unknown keys in one mapping', () => {
    const error = configError(() => parseRepoConfig('tests:\n  command: x\nzzz: 1\n', 'fixloop.yml'));
    expect(error.key).toBe('tests');
    expect(error.message).toBe('fixloop.yml: unknown keys `tests` (line 1; did you mean `test`?), `zzz` (line 3)');
  });

  it('suggests without a line where there is no text (the App reads the file through its loader)', () => {
    const error = configError(() => validateRepoConfig({ loop: { maxAtempts: 3 } }, '.github/fixloop.yml'));
    expect(error.message).toBe('.github/fixloop.yml: unknown key `loop.maxAtempts` (did you mean `loop.maxAttempts`?)');
  });

  it('names every problem at once, one per line', () => {
    const error = configError(() => parseRepoConfig('loop:\n  maxAtempts: 3\ntset:\n  command: npm test\n', 'fixloop.yml'));
    expect(error.key).toBe('loop.maxAtempts');
    const [first, ...lines] = error.message.split('\n');
    expect(first).toBe('fixloop.yml: 2 problems:');
    expect(lines.sort()).toEqual([
      '  - unknown key `loop.maxAtempts` (line 2; did you mean `loop.maxAttempts`?)',
      '  - unknown key `tset` (line 3; did you mean `test`?)',
    ]);
  });

  it('names an unknown engine', () => {
    const error = configError(() => parseRepoConfig('engines: [repair, magic]\n', 'fixloop.yml'));
    expect(error.key).toBe('engines[1]');
    expect(error.message).toContain('engines[1]');
  });

  it('reports broken YAML with its line', () => {
    const error = configError(() => parseRepoConfig('test:\n  command: npm test\n  timeout: [1\nsetup: x\n', 'fixloop.yml'));
    // The reason, its line and column, then the lines with a caret under the place: no dangling `column 1:`.
    expect(error.message).toMatch(
      /^fixloop\.yml: not valid YAML at line 4, column 1: Flow sequence .*end with a \]\n {2}timeout: \[1\nsetup: x\n\^$/,
    );
  });

  it('refuses a file that is not a mapping', () => {
    expect(() => parseRepoConfig('- a\n- b\n', 'fixloop.yml')).toThrow(/must hold a mapping/);
  });
});

describe('loadConfigFile', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  it('prefers fixloop.yml, then .github/fixloop.yml, else defaults', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fixloop-config-'));
    dirs.push(dir);
    expect(await loadConfigFile(dir)).toEqual({ config: defaultRepoConfig(), file: null });
    await mkdir(join(dir, '.github'));
    await writeFile(join(dir, '.github/fixloop.yml'), 'test:\n  command: pytest\n');
    expect((await loadConfigFile(dir)).file).toBe('.github/fixloop.yml');
    await writeFile(join(dir, 'fixloop.yml'), 'test:\n  command: node --test\n');
    const loaded = await loadConfigFile(dir);
    expect(loaded.file).toBe('fixloop.yml');
    expect(loaded.config.test.command).toBe('node --test');
  });

  it('reads the dotfile .fixloop.yml, after fixloop.yml and before .github/fixloop.yml', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fixloop-config-'));
    dirs.push(dir);
    await mkdir(join(dir, '.github'));
    await writeFile(join(dir, '.github/fixloop.yml'), 'test:\n  command: pytest\n');
    await writeFile(join(dir, '.fixloop.yml'), 'test:\n  command: npx vitest run\n');
    const loaded = await loadConfigFile(dir);
    expect(loaded.file).toBe('.fixloop.yml');
    expect(loaded.config.test.command).toBe('npx vitest run');
    await writeFile(join(dir, 'fixloop.yml'), 'test:\n  command: node --test\n');
    expect((await loadConfigFile(dir)).file).toBe('fixloop.yml');
  });
});

describe('applyOverrides', () => {
  it('lets flags win over the file, and --protect only adds', () => {
    const file = parseRepoConfig('test:\n  command: npm test\n  timeout: 30\npaths:\n  protected: ["docs/**"]\n', 'fixloop.yml');
    const merged = applyOverrides(file, {
      test: 'node --test',
      maxAttempts: 2,
      protect: ['vendor/**'],
      allow: ['src/**'],
      timeout: 9,
      evidence: 'exit-code',
    });
    expect(merged.test).toEqual({ command: 'node --test', timeout: 9, evidence: 'exit-code' });
    expect(merged.loop.maxAttempts).toBe(2);
    expect(merged.paths.protected).toEqual(['docs/**', 'vendor/**']);
    expect(merged.paths.allowed).toEqual(['src/**']);
    expect(merged.script.timeout).toBe(9);
  });

  it('keeps workflows protected whatever the configuration says', () => {
    expect(ALWAYS_PROTECTED_PATHS).toContain('.github/workflows/**');
  });
});
