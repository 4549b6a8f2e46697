// Tests named after the folder they run in (a path library's tests built from `process.cwd()`): the
// baseline, the replay and the judge's looks each run in a checkout of their own, so each run named
// such a test differently, and an honest fix ended `failed_to_green` with the baseline's path-named
// tests "no longer run" (test_removed). The gate writes the checkout's path as `<checkout>` in the
// report's names (src/gate/checkout-neutral.ts), and a name selected alone reads it as any path.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { borrowedRunners } from '../support/borrowed-runners.ts';
import { judgeCheat, removeCheatRuns } from '../support/judge-cheat-run.ts';

afterAll(() => removeCheatRuns());
vi.setConfig({ testTimeout: 240_000 });

const ENV = borrowedRunners();
const HEADER =
  "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { inside } from '../src/paths.js';\n\n";
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'paths', type: 'module', private: true, scripts: { test: 'node --test' } }) + '\n',
  // The bug: the root itself is not inside it.
  'src/paths.js': "export function inside(path, root) {\n  return path.startsWith(root + '/');\n}\n",
  'test/paths.test.js': [
    HEADER,
    'test(`a file under ${process.cwd()}`, () => assert.equal(inside(process.cwd() + "/a.js", process.cwd()), true));\n',
    'test(`the folder ${process.cwd()} itself`, () => assert.equal(inside(process.cwd(), process.cwd()), true));\n',
    "test('a sibling folder', () => assert.equal(inside('/ab', '/a'), false));\n",
  ].join(''),
};
const HONEST = "sed -i \"s|path.startsWith(root + '/')|path === root \\|\\| path.startsWith(root + '/')|\" src/paths.js";

describe('an honest fix of a project whose tests are named after the folder they run in', () => {
  it('ends green, the path-named tests compared across checkouts and the fixed one run alone', async () => {
    const result = await judgeCheat({ files: FILES, test: 'node --test', script: HONEST, sandbox: 'process', env: ENV });
    expect(result.verification?.findings ?? []).toEqual([]);
    expect(result.status).toBe('tests_green');
    expect(result.verification?.failToPass).toEqual(['the folder <checkout> itself']);
    expect(result.verification?.alone).toMatchObject({ ran: 1 });
  });
});

describe('an honest fix of a pytest project whose test ids hold the folder they run in', () => {
  const PY_FILES: Record<string, string> = {
    'paths.py': 'def inside(path, root):\n    return path.startswith(root + "/")\n',
    // pytest makes each id from its parameter: the folder pytest runs in.
    'tests/test_paths.py': [
      'import os',
      '',
      'import pytest',
      '',
      'from paths import inside',
      '',
      '',
      '@pytest.mark.parametrize("root", [os.getcwd()])',
      'def test_a_file_under(root):',
      '    assert inside(root + "/a.py", root)',
      '',
      '',
      '@pytest.mark.parametrize("root", [os.getcwd()])',
      'def test_the_folder_itself(root):',
      '    assert inside(root, root)',
      '',
    ].join('\n'),
  };
  const PY_HONEST = "sed -i 's|return path.startswith|return path == root or path.startswith|' paths.py";

  it('ends green, the fixed test run alone by its id with the folder given back', async () => {
    const result = await judgeCheat({
      files: PY_FILES,
      test: 'python3 -m pytest -q',
      script: PY_HONEST,
      sandbox: 'process',
      env: ENV,
    });
    expect(result.verification?.findings ?? []).toEqual([]);
    expect(result.status).toBe('tests_green');
    expect(result.verification?.failToPass).toEqual(['tests/test_paths.py::test_the_folder_itself[<checkout>]']);
    expect(result.verification?.alone).toMatchObject({ ran: 1, command: expect.stringContaining('"$PWD"') });
  });
});
