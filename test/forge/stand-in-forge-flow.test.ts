// A whole run through the forge port alone: a neutral label event, its trigger, the fix service, the
// job store, the run job (a real git repository, a real bare origin, a real test command, the repair
// engine) and publication into an in-memory stand-in forge (test/support/memory-forge.ts). No GitHub,
// no Octokit, no HTTP: what a second forge's adapter would plug into.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ForgeError } from '../../src/core/forge-error.ts';
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import { createFixService } from '../../src/forge/fix-service.ts';
import type { Forge } from '../../src/forge/forge.ts';
import { runJob } from '../../src/forge/run-job.ts';
import { runJobData } from '../../src/forge/run-job-data.ts';
import { createStatusComment } from '../../src/forge/status-comment.ts';
import { createDurableQueue } from '../../src/jobs/durable-queue.ts';
import type { JobQueue } from '../../src/jobs/job-queue.ts';
import { openSqliteStore } from '../../src/jobs/sqlite-store.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import type { LabelEvent } from '../../src/triggers/forge-events.ts';
import { labelTrigger } from '../../src/triggers/on-label.ts';
import type { TriggerDeps } from '../../src/triggers/trigger-deps.ts';
import { BUGGY_SHOP } from '../fixtures/shop.ts';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';
import { createMemoryForge } from '../support/memory-forge.ts';

const dirs: string[] = [];
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  await removeAll(dirs);
});

const log = pino({ level: 'silent' });
/** The stand-in's credentials: an opaque reference that only its "adapter" (the map below) resolves. */
const ACCOUNT = 'memory-forge:acme';

async function origin(): Promise<string> {
  const work = await makeRepo(BUGGY_SHOP);
  const bare = await mkdtemp(join(tmpdir(), 'fixloop-origin-'));
  dirs.push(work, bare);
  git(bare, 'clone', '-q', '--bare', work, '.');
  return bare;
}

/** The run lane's worker, as an adapter writes it: the forge from the stored credential reference. */
function startWorker(queue: JobQueue, forges: Map<string, Forge>, tmpRoot: string, retryDelaysMs?: number[]): Promise<void> {
  return queue.start(async (job, control) => {
    const data = runJobData(job);
    const forge = forges.get(data.credentialRef);
    if (!forge) throw new Error(`no account ${data.credentialRef}`);
    const status = createStatusComment(forge, data.plan.number, data.runId, () => undefined, data.statusCommentId);
    return runJob(
      data,
      {
        forge,
        status,
        log,
        runDeps: { sandbox: createProcessSandbox(), artifactsRoot: join(tmpRoot, 'runs'), tmpRoot },
        ...(retryDelaysMs ? { retryDelaysMs } : {}),
      },
      control,
    );
  });
}

/** A repository on the stand-in forge, its origin, a store and queue, and the triggers' dependencies. */
async function standIn(configured: Record<string, unknown> = {}) {
  const bare = await origin();
  const tmpRoot = await mkdtemp(join(tmpdir(), 'fixloop-stand-in-'));
  dirs.push(tmpRoot);
  const forge = createMemoryForge({ owner: 'acme', repo: 'shop', permissions: { alice: 'write' } });
  const store = await openSqliteStore(null);
  // A lease long enough for a run (fix, replay) on a loaded machine: nothing here tests its expiry.
  const queue = createDurableQueue({ store, concurrency: 1, leaseMs: 10_000, pollMs: 50 });
  closing.push(
    () => queue.shutdown(0),
    () => store.close(),
  );
  // The forge's flow is what is tested: no assessment, and the repair engine's first plausible patch.
  const config = repoConfigSchema.parse({
    test: { command: 'node --test' },
    repair: { exploreTime: 0 },
    assessment: { enabled: false },
    ...configured,
  });
  const deps: TriggerDeps = {
    forge,
    service: createFixService(forge, log, ACCOUNT, { queue }),
    queue,
    log,
    config: async () => config,
  };
  const labeled = (number: number, title: string): LabelEvent => ({
    deliveryId: `delivery-${number}`,
    repository: { owner: 'acme', name: 'shop', cloneUrl: bare, defaultBranch: 'main' },
    subject: { number, title, body: 'An order of 100 gets no discount.', isChangeRequest: false },
    label: 'fixloop',
    requester: 'alice',
  });
  return { bare, tmpRoot, forge, store, queue, deps, labeled };
}

describe('a label to a verified pull request on a stand-in forge', () => {
  it('pushes the branch, opens the pull request, completes the status and updates the status comment', async () => {
    const { bare, tmpRoot, forge, store, queue, deps, labeled } = await standIn({ pr: { labels: ['automated'] } });

    await labelTrigger.handle(labeled(1, 'No discount at exactly 100'), deps);
    const [stored] = await store.list(10);
    expect(stored).toMatchObject({ key: 'acme/shop#1', state: 'queued', actor: 'alice' });
    expect(runJobData((await store.get(stored!.runId))!).credentialRef).toBe(ACCOUNT);

    await startWorker(queue, new Map([[ACCOUNT, forge]]), tmpRoot);
    await queue.drain();

    // The branch: pushed to the origin the plan named, holding the fix on top of main.
    const main = git(bare, 'rev-parse', 'refs/heads/main').trim();
    const [branch = ''] = git(bare, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/fixloop/').trim().split('\n');
    expect(branch).toMatch(/^fixloop\/1-[0-9a-f]{6}$/);
    expect(git(bare, 'rev-parse', `${branch}~1`).trim()).toBe(main);
    expect(git(bare, 'show', `${branch}:src/discount.js`)).toContain('total >= 100');
    // The pull request: from that branch into main, ready (verified per test), with the report and the labels.
    expect(forge.opened).toHaveLength(1);
    const pr = forge.opened[0]!;
    expect(pr).toMatchObject({ head: branch, base: 'main', draft: false, title: 'fixloop: No discount at exactly 100' });
    expect(pr.body).toContain('Fixes #1');
    expect(pr.body).toContain('✅ Verified fix');
    expect(forge.labels.get(pr.number)).toEqual(['automated']);
    // The status on the commit worked on: started, then completed as a success.
    expect([...forge.statuses.values()]).toMatchObject([{ sha: main, outcome: { conclusion: 'success' } }]);
    // One status comment on the issue, updated in place: its last form links the pull request.
    const comments = [...forge.comments.values()].filter((c) => c.issue === 1);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body).toMatch(/^<!-- fixloop:status run=/);
    expect(comments[0]?.body).toContain(`opened #${pr.number}`);
    expect(forge.calls).toContain('updateComment');
    // The store: the run done, its artifacts kept.
    const done = await store.get(stored!.runId);
    expect(done).toMatchObject({ state: 'done' });
    expect(done?.artifactsDir).toBeTruthy();
  });

  it('keeps the verified patch in the store when the forge stays unavailable at the end', async () => {
    const { tmpRoot, forge, store, queue, deps, labeled } = await standIn();
    await labelTrigger.handle(labeled(2, 'Discount'), deps);
    // Every try to open the pull request fails, and so does the status's completion.
    const down = () => new ForgeError('unavailable', 'Service Unavailable');
    forge.failNext('openPullRequest', down(), down(), down());
    forge.failNext('completeStatus', down());

    await startWorker(queue, new Map([[ACCOUNT, forge]]), tmpRoot, [1, 1]);
    await queue.drain();

    const [job] = await store.list(10);
    expect(job?.artifactsDir).toBeTruthy();
    expect(forge.calls.filter((c) => c === 'openPullRequest')).toHaveLength(3);
    expect(forge.opened).toEqual([]);
    expect([...forge.statuses.values()]).toMatchObject([{ outcome: null }]);
    const comment = [...forge.comments.values()].find((c) => c.issue === 2);
    expect(comment?.body).toContain('verified a fix but could not publish it: the forge did not answer');
    expect(comment?.body).toContain(`fixloop publish ${job?.runId}`);
  });

  it('names a refusal of the credentials before the run, and does not try again', async () => {
    const { tmpRoot, forge, store, queue, deps, labeled } = await standIn();
    await labelTrigger.handle(labeled(3, 'Discount'), deps);
    forge.failNext('cloneAuth', new ForgeError('forbidden', 'Resource not accessible by integration'));

    await startWorker(queue, new Map([[ACCOUNT, forge]]), tmpRoot, [1, 1]);
    await queue.drain();

    const [job] = await store.list(10);
    expect(job).toMatchObject({ state: 'failed', outcome: 'Resource not accessible by integration' });
    expect(forge.calls.filter((c) => c === 'cloneAuth')).toHaveLength(1);
    const comment = [...forge.comments.values()].find((c) => c.issue === 3);
    expect(comment?.body).toContain('stopped with an error');
    expect(comment?.body).toContain(
      "the forge refused: fixloop's access to this repository does not allow it (Resource not accessible by integration)",
    );
  });
});
