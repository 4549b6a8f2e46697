// The configuration and setup files the judge lists for the runtime guard (src/verify/exempt-files.ts):
// the baseline's files so named that the patch left as they were; never one the patch added or changed.
import { rm, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exemptByName, exemptFiles } from '../../src/verify/exempt-files.ts';
import { runnerFileFindings } from '../../src/verify/runner-files.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

describe('the files the judge lets the runtime guard take as configuration or setup', () => {
  it('knows them by the names both guards know, each one a name the judge protects', () => {
    const exempt = [
      'jest.config.js',
      'vite.config.mjs',
      '.mocharc.cjs',
      'vitest.workspace.ts',
      'setupTests.js',
      'src/test-setup.ts',
    ];
    for (const path of [...exempt, 'jest.setup.ts', 'conftest.py', 'tests/unit/conftest.py']) {
      expect(exemptByName(path), path).toBe(true);
      expect(
        runnerFileFindings([{ path, kind: 'modified', added: 1, removed: 0, binary: false }], [], new Set()),
        path,
      ).toHaveLength(1);
    }
    // Named like configuration or setup, but no runner's: the code's, and a patch may change them.
    for (const path of ['src/foo.config.mjs', 'webpack.config.js', 'lib/db-setup.js', 'src/i18n.setup.js'])
      expect(exemptByName(path), path).toBe(false);
    for (const path of ['src/config.js', 'src/setup.py', 'src/math.js', 'my_conftest.py', 'jest.setup.json'])
      expect(exemptByName(path), path).toBe(false);
  });

  it("lists the baseline's, without those the patch added, changed or removed", async () => {
    const dir = await makeRepo({
      'jest.config.js': 'module.exports = {};\n',
      'test/setupTests.js': '// setup\n',
      'tests/conftest.py': '# fixtures\n',
      'src/jest.config.js': 'module.exports = 1;\n',
      'src/test.setup.js': '// gone\n',
      'src/math.js': 'module.exports = {};\n',
    });
    dirs.push(dir);
    // The patch, applied to the work tree only (as the replay applies it).
    await writeFile(join(dir, 'src/jest.config.js'), 'module.exports = 2;\n');
    await rm(join(dir, 'src/test.setup.js'));
    await mkdir(join(dir, 'lib'));
    await writeFile(join(dir, 'lib/jest.setup.js'), '// added\n');
    await writeFile(join(dir, 'lib/vitest.config.js'), '// added\n');
    await writeFile(join(dir, 'src/conftest.py'), '# added\n');
    expect((await exemptFiles(dir)).sort()).toEqual(['jest.config.js', 'test/setupTests.js', 'tests/conftest.py']);
  });

  it('lists none where git cannot list the checkout', async () => {
    const dir = await makeRepo({ 'jest.config.js': 'module.exports = {};\n' }, { git: false });
    dirs.push(dir);
    expect(await exemptFiles(dir)).toEqual([]);
  });
});
