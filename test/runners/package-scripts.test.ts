// package.json's scripts, read once for every stage: only scripts whose commands are strings, and
// none where there is no package.json or one npm would refuse.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  packageScriptArguments,
  packageScriptCall,
  packageScriptName,
  packageScripts,
  packageScriptsNow,
  scriptsOfPackageJson,
  withScriptArguments,
} from '../../src/runners/package-scripts.ts';

describe("package.json's scripts", () => {
  it('keeps the scripts that are commands, and gives none for a file that is not a package.json', () => {
    expect(scriptsOfPackageJson('{ "scripts": { "test": "jest", "odd": 3 } }')).toEqual({ test: 'jest' });
    for (const text of [null, '', '{', '[]', '{ "scripts": "jest" }', '{ "name": "x" }'])
      expect(scriptsOfPackageJson(text)).toEqual({});
  });

  it('reads them from a folder, now or later, and none from a folder without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixloop-scripts-'));
    try {
      expect(packageScriptsNow(dir)).toEqual({});
      expect(await packageScripts(dir)).toEqual({});
      writeFileSync(join(dir, 'package.json'), '{ "scripts": { "test": "mocha" } }');
      expect(packageScriptsNow(dir)).toEqual({ test: 'mocha' });
      expect(await packageScripts(dir)).toEqual({ test: 'mocha' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a script's call through its package manager", () => {
  it('names the script npm, pnpm or yarn runs, with its aliases', () => {
    expect(packageScriptName('npm test')).toBe('test');
    expect(packageScriptName('npm t')).toBe('test');
    expect(packageScriptName('pnpm t')).toBe('test');
    expect(packageScriptName('yarn t')).toBe('t');
    expect(packageScriptName('npm run-script unit.fast')).toBe('unit.fast');
    expect(packageScriptName('pnpm run test:unit')).toBe('test:unit');
    expect(packageScriptName('yarn lint')).toBe('lint');
    expect(packageScriptName('npm test -- -t x')).toBeNull();
    expect(packageScriptName('make test')).toBeNull();
    expect(packageScriptCall('npm test --silent')).toEqual({ manager: 'npm', name: 'test', rest: '--silent', run: false });
  });

  it('reads what each manager hands the script, only in the forms every version of it hands on as they are', () => {
    expect(packageScriptArguments('npm test -- --grep x')).toEqual({ name: 'test', args: '--grep x' });
    expect(packageScriptArguments('npm run unit -- -t x')).toEqual({ name: 'unit', args: '-t x' });
    expect(packageScriptArguments('pnpm run test -t x')).toEqual({ name: 'test', args: '-t x' });
    expect(packageScriptArguments('yarn run test --grep x')).toEqual({ name: 'test', args: '--grep x' });
    // npm without `--` reads the options as its own; pnpm 10 hands `--` on; pnpm 8's `test` keeps `-t`.
    expect(packageScriptArguments('npm test --grep x')).toBeNull();
    expect(packageScriptArguments('pnpm run test -- -t x')).toBeNull();
    expect(packageScriptArguments('pnpm test -t x')).toBeNull();
  });

  it('writes the call each manager reads back', () => {
    for (const command of ['npm test', 'pnpm test', 'yarn run unit']) {
      const call = packageScriptCall(command)!;
      expect(packageScriptArguments(withScriptArguments(call, command, '-t x'))).toEqual({ name: call.name, args: '-t x' });
    }
  });
});
