// The look from outside the runner calls a published npm package where npm installs it: a copy of the
// checkout at `.fixloop-probe/installed/node_modules/<name>`, without its dependencies, git's folder
// or the probe's own, removed after the calls. An application, or a package.json without a valid
// name, is looked at where it is.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withInstalledCopy } from '../../src/assess/installed-copy.ts';
import { npmInstalledAt } from '../../src/assess/js/npm-installed.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';

const made: string[] = [];
afterEach(() => removeAll(made));

/** The files in a temp folder, not a git repository: the copy reads the folder, not git. */
async function checkout(files: Record<string, string>): Promise<string> {
  const dir = await makeRepo(files, { git: false });
  made.push(dir);
  return dir;
}

describe('where npm installs a package', () => {
  it('is node_modules/<name> for a published package, scoped or not, and nowhere for an application', async () => {
    const at = async (manifest: unknown) => npmInstalledAt(await checkout({ 'package.json': JSON.stringify(manifest) }));
    expect(await at({ name: 'paths', version: '1.0.0' })).toBe('node_modules/paths');
    expect(await at({ name: '@acme/paths' })).toBe('node_modules/@acme/paths');
    expect(await at({ name: 'paths', private: true })).toBeNull();
    expect(await at({ name: '../escape' })).toBeNull();
    expect(await at({ version: '1.0.0' })).toBeNull();
    expect(await npmInstalledAt(await checkout({ 'src/a.js': '' }))).toBeNull();
  });
});

describe('the installed copy', () => {
  const files = {
    'package.json': JSON.stringify({ name: '@acme/paths' }),
    'src/paths.js': 'module.exports = 1;\n',
    'node_modules/dep/index.js': 'module.exports = 2;\n',
    '.git/HEAD': 'ref: refs/heads/main\n',
  };

  it('holds the checkout without its dependencies or git folder while the calls run, and is gone after', async () => {
    const dir = await checkout(files);
    const seen = await withInstalledCopy(dir, npmInstalledAt, async (prefix) => {
      const at = join(dir, prefix);
      return {
        prefix,
        source: readFileSync(join(at, 'src/paths.js'), 'utf8'),
        dependencies: existsSync(join(at, 'node_modules')),
        git: existsSync(join(at, '.git')),
      };
    });
    expect(seen).toEqual({
      prefix: '.fixloop-probe/installed/node_modules/@acme/paths',
      source: 'module.exports = 1;\n',
      dependencies: false,
      git: false,
    });
    expect(existsSync(join(dir, '.fixloop-probe/installed'))).toBe(false);
  });

  it('gives the checkout itself where the language names no place', async () => {
    const dir = await checkout(files);
    expect(await withInstalledCopy(dir, undefined, async (prefix) => prefix)).toBe('');
    expect(
      await withInstalledCopy(
        dir,
        async () => null,
        async (prefix) => prefix,
      ),
    ).toBe('');
  });
});
