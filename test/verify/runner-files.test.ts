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
      'babel.config.json',
      'babel.config.cts',
      '.babelrc.json',
      '__mocks__/csv-decoder.js',
      'src/__mocks__/client.ts',
      '.env.test',
      'web/.env.test.local',
    ];
    expect(paths(cheats.map((p) => change(p)))).toEqual(cheats);
  });

  it("refuses a change to a test setup file, the tests' side; a module merely named for setup is the code's", () => {
    const setup = ['jest.setup.js', 'src/setupTests.ts', 'test-setup.mjs', 'config/vitest.setup.ts', 'setup-tests.js'];
    expect(paths(setup.map((p) => change(p)))).toEqual(setup);
    expect(paths(['src/db-setup.js', 'lib/i18n.setup.js', 'src/setup.js'].map((p) => change(p)))).toEqual([]);
    // Environment files for other modes are the program's settings.
    expect(paths(['.env', '.env.example', '.env.production', 'src/env.test.js'].map((p) => change(p)))).toEqual([]);
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
    // Babel's configuration as a package.json key: jest's default transform applies it to the code.
    const babel: ChangedText = {
      path: 'package.json',
      before,
      after: JSON.stringify({ scripts: { test: 'node --test' }, dependencies: { a: '1.0.0' }, babel: { plugins: ['./x.js'] } }),
    };
    expect(paths([change('package.json')], [babel])).toEqual(['package.json']);
  });

  it("refuses an `imports` entry keyed on a condition node does not set, and lets the program's own wiring change", () => {
    const before = JSON.stringify({ name: 'p', imports: { '#rules': './src/rules.js' } });
    const entry = (imports: unknown): ChangedText => ({
      path: 'package.json',
      before,
      after: JSON.stringify({ name: 'p', imports }),
    });
    const refused = (imports: unknown) => paths([change('package.json')], [entry(imports)]);
    expect(refused({ '#rules': './src/rules-v2.js' })).toEqual([]);
    expect(refused({ '#rules': './src/rules.js', '#util/*': './src/util/*.js' })).toEqual([]);
    expect(refused({ '#rules': { import: './src/rules.mjs', require: './src/rules.js' } })).toEqual([]);
    expect(refused({ '#rules': { node: { default: './src/rules.js' } } })).toEqual([]);
    expect(refused({ '#rules': { test: './src/fixed.js', default: './src/rules.js' } })).toEqual(['package.json']);
    expect(refused({ '#rules': { node: { development: './src/fixed.js' }, default: './src/rules.js' } })).toEqual([
      'package.json',
    ]);
    expect(refused({ '#rules': [{ vitest: './src/fixed.js' }, './src/rules.js'] })).toEqual(['package.json']);
    // Removing such an entry counts as well: the tests' file goes with it.
    const conditioned = JSON.stringify({ imports: { '#rules': { jest: './a.js', default: './b.js' } } });
    expect(paths([change('package.json')], [{ path: 'package.json', before: conditioned, after: '{}' }])).toEqual([
      'package.json',
    ]);
    expect(paths([change('package.json')], [{ path: 'package.json', before, after: '{ not json' }])).toEqual(['package.json']);
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

  it("compares pyproject's pytest settings as TOML reads them, however they are written", () => {
    const before = '[project]\nname = "shop"\n\n[tool.black]\nline-length = 100\n';
    const written = (after: string): ChangedText => ({ path: 'pyproject.toml', before, after });
    // Dotted keys under a plain [tool] table, at the top, or as an inline table are pytest's settings too.
    const underTool = written(`${before}\n[tool]\npytest.ini_options.addopts = "-p hackplugin"\n`);
    const atTop = written(`tool.pytest.ini_options.addopts = "-p hackplugin"\n${before}`);
    const inline = written(`tool.pytest = { ini_options = { addopts = "-x" } }\n${before}`);
    const plugin = written(before.replace('name = "shop"', 'name = "shop"\nentry-points = { pytest11 = { h = "h" } }'));
    for (const cheat of [underTool, atTop, inline])
      expect(paths([change('pyproject.toml')], [cheat])).toEqual(['pyproject.toml']);
    expect(paths([change('pyproject.toml')], [plugin])).toEqual(['pyproject.toml']);
    // The same settings written another way, and other tools' settings, are not the runner's change.
    const settings = '[tool.pytest.ini_options]\naddopts = "-q"\ntestpaths = ["tests"]\n';
    const reordered: ChangedText = {
      path: 'pyproject.toml',
      before: `${before}\n${settings}`,
      after: `${before.replace('100', '120')}\n# the suite\n[tool.pytest.ini_options]\ntestpaths = [ "tests" ]\naddopts = "-q"\n`,
    };
    expect(paths([change('pyproject.toml')], [reordered])).toEqual([]);
    // A file that no longer parses cannot be shown to keep them: it counts as changed.
    expect(paths([change('pyproject.toml')], [written(`${before}\n[tool.pytest.ini_options\n`)])).toEqual(['pyproject.toml']);
  });

  it('compares setup.cfg and tox.ini sections as configparser reads them', () => {
    const before = '[metadata]\nname = shop\n\n[tool:pytest]\naddopts =\n    -q\ntestpaths = tests\n';
    const continued: ChangedText = { path: 'setup.cfg', before, after: before.replace('    -q', '    -q\n    -p hackplugin') };
    const indentedHeader: ChangedText = {
      path: 'setup.cfg',
      before,
      after: `${before}\n  [tool:pytest]\nxfail_strict = false\n`,
    };
    const cosmetic: ChangedText = {
      path: 'setup.cfg',
      before,
      after: `# settings\n${before.replace('testpaths = tests', 'TESTPATHS: tests').replace('name = shop', 'name = shop2')}`,
    };
    expect(paths([change('setup.cfg')], [continued])).toEqual(['setup.cfg']);
    expect(paths([change('setup.cfg')], [indentedHeader])).toEqual(['setup.cfg']);
    expect(paths([change('setup.cfg')], [cosmetic])).toEqual([]);
    const tox: ChangedText = {
      path: 'tox.ini',
      before: '[tox]\nenvlist = py3\n',
      after: '[tox]\nenvlist = py3\n[pytest]\naddopts = -x\n',
    };
    expect(paths([change('tox.ini')], [tox])).toEqual(['tox.ini']);
  });

  it('lets ordinary source changes through', () => {
    expect(paths([change('src/cart.js'), change('shop/prices.py'), change('README.md')])).toEqual([]);
  });
});
