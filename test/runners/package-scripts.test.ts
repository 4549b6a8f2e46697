// package.json's scripts, read once for every stage: only scripts whose commands are strings, and
// none where there is no package.json or one npm would refuse.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageScripts, packageScriptsNow, scriptsOfPackageJson } from '../../src/runners/package-scripts.ts';

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
