// `fixloop runs` and `fixloop runs show` read the App's run store, as an operator would.
import { newRunJob } from '../../src/forge/run-job-data.ts';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/jobs/sqlite-store.ts';
import { jobData } from '../support/job-data.ts';
import { runCli } from '../support/run-cli.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fixloop-runs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('fixloop runs', () => {
  it('lists runs and shows one with its audit trail and report', async () => {
    const data = join(dir, 'data');
    const store = await openSqliteStore(data);
    await store.enqueue(newRunJob(jobData('mwt1-aaaaaa', 'acme/shop#7')), 'alice', 'd-1');
    await store.markReady('mwt1-aaaaaa', { statusCommentId: 5 });
    await store.claim('w1', 10_000);
    const artifacts = join(data, 'runs', 'mwt1-aaaaaa');
    await mkdir(artifacts, { recursive: true });
    await writeFile(join(artifacts, 'report.md'), '## fixloop: ✅ Verified fix\n');
    await store.finish('mwt1-aaaaaa', 'w1', 'done', 'Verified fix after 1 attempt. Pull request #8.', artifacts);
    await store.close();

    const list = await runCli(['runs'], { cwd: dir, env: { FIXLOOP_DATA_DIR: data } });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/mwt1-aaaaaa\s+done\s+acme\/shop#7\s+alice/);
    expect(list.stdout).toContain('Pull request #8.');

    const show = await runCli(['runs', 'show', 'mwt1-aaaaaa'], { cwd: dir, env: { FIXLOOP_DATA_DIR: data } });
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/queued\s+\{"key":"acme\/shop#7","actor":"alice","deliveryId":"d-1","trigger":"label"\}/);
    expect(show.stdout).toMatch(/claimed[\s\S]*done/);
    expect(show.stdout).toContain('## fixloop: ✅ Verified fix');
  });

  // A green run explores and assesses its patch: over 70 s on a loaded 2-core machine.
  it(
    "lists the command line's runs beside the App's, shows one, and says replay is for the App's runs",
    { timeout: 240_000 },
    async () => {
      const project = join(dir, 'project');
      await mkdir(join(project, 'src'), { recursive: true });
      await mkdir(join(project, 'test'));
      await writeFile(join(project, 'src/math.js'), 'export const add = (a, b) => a - b;\n');
      await writeFile(
        join(project, 'test/math.test.js'),
        "import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/math.js';\ntest('adds', () => assert.equal(add(1, 2), 3));\n",
      );
      await writeFile(join(project, 'package.json'), '{ "type": "module" }\n');
      const run = await runCli(
        [
          'run',
          project,
          '--test',
          'node --test',
          '--engine',
          'script',
          '--script',
          "sed -i 's/a - b/a + b/' src/math.js",
          '--json',
        ],
        { cwd: dir },
      );
      expect(run.code, run.stderr).toBe(0);
      const runId = (JSON.parse(run.stdout) as { runId: string }).runId;

      const list = await runCli(['runs'], { cwd: dir });
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(
        new RegExp(
          `Command-line runs \\(1\\):[\\s\\S]*${runId}\\s+tests_green \\(verified\\)\\s+${project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
        ),
      );
      const show = await runCli(['runs', 'show', runId], { cwd: dir });
      expect(show.code).toBe(0);
      expect(show.stdout).toMatch(new RegExp(`^Run ${runId} \\(command line\\): tests_green`));
      expect(show.stdout).toContain('## fixloop: ✅ Verified fix');
      const replay = await runCli(['replay', runId], { cwd: dir });
      expect(replay.code).toBe(2);
      expect(replay.stderr).toMatch(
        new RegExp(`run \`${runId}\` is a command-line run: replay and publish work on the App's stored runs`),
      );
    },
  );

  it('lists the stored deliveries that started no run, with their state and why, beside the runs', async () => {
    const data = join(dir, 'data');
    const store = await openSqliteStore(data);
    for (const delivery of ['d-failed', 'd-handled', 'd-waiting'])
      await store.acceptEvent({ delivery, name: 'issue_comment.created', payload: {}, credentialRef: 'ref' });
    await store.claim('w1', 10_000, 'event');
    await store.finish('event-d-failed', 'w1', 'failed', "issue_comment.created: GitHub's API did not answer");
    await store.claim('w1', 10_000, 'event');
    await store.finish('event-d-handled', 'w1', 'done', 'handled');
    await store.close();

    const list = await runCli(['runs'], { cwd: dir, env: { FIXLOOP_DATA_DIR: data } });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`No runs recorded in ${data}.`);
    expect(list.stdout).toContain('Deliveries that started no run (2):');
    expect(list.stdout).toMatch(/d-failed\s+failed\s+\S+ \S+\s+issue_comment\.created: GitHub's API did not answer/);
    expect(list.stdout).toMatch(/d-waiting\s+queued/);
    expect(list.stdout).not.toContain('d-handled');
  });

  it('names an unknown run and a broken store without a stack trace', async () => {
    const unknown = await runCli(['runs', 'show', 'nope'], { cwd: dir, env: { FIXLOOP_DATA_DIR: dir } });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no run `nope`');
    await writeFile(join(dir, 'fixloop.db'), 'not a database at all, just text'.repeat(50));
    const broken = await runCli(['runs'], { cwd: dir, env: { FIXLOOP_DATA_DIR: dir } });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/FIXLOOP_DATA_DIR: the run store .* cannot be used/);
    expect(broken.stderr).not.toMatch(/\.ts:\d+/);
  });
});
