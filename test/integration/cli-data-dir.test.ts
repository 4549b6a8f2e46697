// Where `fixloop run` keeps its runs: fixloop's data folder (the XDG data home here), one folder per
// repository, never the repository it is run in; `fixloop runs` from that repository lists them.
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';
import { runCli } from '../support/run-cli.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const PROJECT = {
  'package.json': '{ "name": "calc", "type": "module", "private": true }\n',
  'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  'test/math.test.js':
    "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from '../src/math.js';\n\ntest('add sums', () => {\n  assert.equal(add(2, 3), 5);\n});\n",
};

describe("fixloop run's records", { timeout: 400_000 }, () => {
  it('leave the repository it ran in untouched (`git status` clean) and are listed by `fixloop runs` from inside it', async () => {
    const project = await makeRepo(PROJECT);
    const dataHome = await mkdtemp(join(tmpdir(), 'fixloop-xdg-'));
    const elsewhere = await mkdtemp(join(tmpdir(), 'fixloop-elsewhere-'));
    dirs.push(project, dataHome, elsewhere);
    // FIXLOOP_DATA_DIR unset: the XDG data home is where the command line keeps its runs.
    const env = { XDG_DATA_HOME: dataHome };
    const run = await runCli(
      ['run', '.', '--test', 'node --test', '--engine', 'script', '--script', 'true', '--max-attempts', '1'],
      { cwd: project, env: withoutDataDir(env), exactEnv: true },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(git(project, 'status', '--porcelain', '--ignored')).toBe('');
    const kept = await readdir(join(dataHome, 'fixloop', 'cli-runs'));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^fixloop-fixture-\w+-[0-9a-f]{10}$/);

    const list = await runCli(['runs'], { cwd: join(project, 'test'), env: withoutDataDir(env), exactEnv: true });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`Command-line runs \\(1\\): ${project}\\n`));
    const runId = /^(\S+-\S+)\s+(?:failed_to_green|escalated)\s/m.exec(list.stdout)?.[1] ?? '';
    expect(runId).not.toBe('');
    const show = await runCli(['runs', 'show', runId], { cwd: elsewhere, env: withoutDataDir(env), exactEnv: true });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain(`artifacts in ${join(dataHome, 'fixloop', 'cli-runs', kept[0] ?? '', runId)}`);
    expect(git(project, 'status', '--porcelain', '--ignored')).toBe('');
    // Elsewhere, with none of that folder's own, every run is listed, under its repository.
    const all = await runCli(['runs'], { cwd: elsewhere, env: withoutDataDir(env), exactEnv: true });
    expect(all.stdout).toMatch(new RegExp(`Command-line runs \\(1\\): ${project}\\n[\\s\\S]*${runId}`));
    expect(await readdir(elsewhere)).toEqual([]);
  });
});

/** This process's environment with `extra`, and without FIXLOOP_DATA_DIR. */
function withoutDataDir(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...extra }))
    if (value && name !== 'FIXLOOP_DATA_DIR') env[name] = value;
  return env;
}
