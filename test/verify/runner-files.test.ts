// What decides how tests run is protected: the runner's configuration and entry points, the tests
// the baseline ran, fixloop's own settings. Honest changes next to them are not findings.
import { describe, expect, it } from 'vitest';
import type { FileChange } from '../../src/core/file-change.ts';
import { runnerFileFindings, type ChangedText } from '../../src/verify/runner-files.ts';

const change = (path: string, kind: FileChange['kind'] = 'modified'): FileChange => ({
  path,
  kind,
  added: 1,
  removed: 1,
  binary: false,
});
const paths = (changes: FileChange[], texts: ChangedText[] = [], tests: string[] = []) =>
  runnerFileFindings(changes, texts, new Set(tests)).map((f) => f.path);

describe('protected runner files', () => {
  it("refuses the runner's configuration and the files Python and Node load first", () => {
    const cheats = [
      '.npmrc',
      'vitest.config.ts',
      'jest.config.js',
      '.mocharc.yml',
      'pytest.ini',
      '.pytest.ini',
      'pytest.toml',
      '.pytest.toml',
      'tests/unit/conftest.py',
      'src/conftest.py',
      'sitecustomize.py',
      'lib/hack.pth',
      'fixloop.yml',
      '.fixloop.yml',
      '.fixloop.yaml',
      'babel.config.js',
    ];
    expect(paths(cheats.map((p) => change(p)))).toEqual(cheats);
  });

  it('refuses a new file that shadows the runner, and changes to installed packages', () => {
    expect(
      paths([
        change('pytest.py', 'created'),
        change('_pytest/hooks.py', 'created'),
        change('node_modules/vitest/index.js', 'created'),
      ]),
    ).toHaveLength(3);
  });

  it('refuses installed-package metadata and the files that declare entry points: pytest loads every pytest11 plugin', () => {
    expect(
      paths([
        change('hack-1.0.dist-info/entry_points.txt', 'created'),
        change('src/shop.egg-info/entry_points.txt'),
        change('setup.py'),
      ]),
    ).toHaveLength(3);
    const before = '[project]\nname = "shop"\n';
    const plugin: ChangedText = {
      path: 'pyproject.toml',
      before,
      after: `${before}\n[project.entry-points.pytest11]\nhack = "hackplugin"\n`,
    };
    expect(paths([change('pyproject.toml')], [plugin])).toEqual(['pyproject.toml']);
    const cfg: ChangedText = {
      path: 'setup.cfg',
      before: '[metadata]\nname = shop\n',
      after: '[metadata]\nname = shop\n\n[options.entry_points]\npytest11 =\n    hack = hackplugin\n',
    };
    expect(paths([change('setup.cfg')], [cfg])).toEqual(['setup.cfg']);
  });

  it('refuses a change to a file the baseline ran as tests, wherever it lives', () => {
    expect(paths([change('checks/cart_check.py')], [], ['checks/cart_check.py'])).toEqual(['checks/cart_check.py']);
  });

  it('refuses package.json script or runner changes, but not a dependency bump', () => {
    const before = JSON.stringify({ scripts: { test: 'node --test' }, dependencies: { a: '1.0.0' } });
    const scripts: ChangedText = {
      path: 'package.json',
      before,
      after: JSON.stringify({ scripts: { test: 'exit 0' }, dependencies: { a: '1.0.0' } }),
    };
    const bump: ChangedText = {
      path: 'package.json',
      before,
      after: JSON.stringify({ scripts: { test: 'node --test' }, dependencies: { a: '1.0.1' } }),
    };
    expect(paths([change('package.json')], [scripts])).toEqual(['package.json']);
    expect(paths([change('package.json')], [bump])).toEqual([]);
  });

  it("refuses pyproject's pytest section, not the rest of the file", () => {
    const before = '[project]\nname = "shop"\nversion = "1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n';
    const addopts: ChangedText = {
      path: 'pyproject.toml',
      before,
      after: before.replace('testpaths = ["tests"]', 'testpaths = ["tests"]\naddopts = "-p hackplugin"'),
    };
    const version: ChangedText = { path: 'pyproject.toml', before, after: before.replace('1.0', '1.1') };
    expect(paths([change('pyproject.toml')], [addopts])).toEqual(['pyproject.toml']);
    expect(paths([change('pyproject.toml')], [version])).toEqual([]);
  });

  it('lets ordinary source changes through', () => {
    expect(paths([change('src/cart.js'), change('shop/prices.py'), change('README.md')])).toEqual([]);
  });
});
