// A module or package a patch adds at the repository's top under a name the runner itself loads
// shadows the runner, and is refused like its own files. The names are asked of the real pytest on
// this machine (in an empty folder, by the command its descriptor gives), never listed here.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileChange } from '../../src/core/file-change.ts';
import { shadowFindings } from '../../src/verify/runner-shadowing.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const created = (path: string): FileChange => ({ path, kind: 'created', added: 1, removed: 0, binary: false });

async function shadows(paths: string[], testCommand = 'python3 -m pytest -q', existing: string[] = []) {
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-shadow-'));
  dirs.push(dir);
  for (const folder of existing) await mkdir(join(dir, folder), { recursive: true });
  const asked: string[] = [];
  const log: string[] = [];
  const run = async (cwd: string, command: string) => {
    asked.push(command);
    const out = await promisify(execFile)('sh', ['-c', command], {
      cwd,
      env: { ...process.env, PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' },
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    return out.stdout;
  };
  const findings = await shadowFindings({
    changes: paths.map(created),
    dir,
    testCommand,
    run,
    scratchDir: dir,
    log: (line) => log.push(line),
  });
  return { paths: findings.map((f) => f.path), messages: findings.map((f) => f.message), asked, log };
}

describe('shadowing the runner', () => {
  it('refuses a `pytest/` package, a dependency of pytest and a stdlib module pytest loads, added at the top', async () => {
    const { paths, messages, log } = await shadows([
      'pytest/__init__.py',
      'pytest/__main__.py',
      'iniconfig.py',
      'json.py',
      'shop/cart.py',
      'src/json.py',
      'pluggy.py',
    ]);
    expect(log).toEqual([]);
    // `pluggy.py` is refused by pytest's own files already (runner-files): not twice.
    expect(paths).toEqual(['pytest/__init__.py', 'pytest/__main__.py', 'iniconfig.py', 'json.py']);
    expect(messages[0]).toBe(
      '`pytest/__init__.py` shadows `pytest`, which the test runner loads (pytest imports it before any test): a fix may not add it',
    );
  }, 60_000);

  it('asks the runner only when the patch adds a new top-level name, and never for a name the repository had', async () => {
    expect((await shadows(['shop/cart.py', 'README.md'], 'python3 -m pytest', ['shop'])).asked).toEqual([]);
    expect((await shadows(['pytest/extra.py'], 'python3 -m pytest', ['pytest'])).paths).toEqual([]);
    expect((await shadows(['pytest/__init__.py'], 'node --test')).asked).toEqual([]);
  }, 60_000);

  it('says in the log when the runner could not be asked', async () => {
    const { paths, log } = await shadows(['pytest/__init__.py'], 'no-such-python -m pytest');
    expect(paths).toEqual([]);
    expect(log).toEqual(['replay: could not ask pytest which modules it loads; only its known files are refused']);
  }, 60_000);
});
