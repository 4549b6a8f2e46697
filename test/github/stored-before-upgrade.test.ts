// Runs and deliveries stored by a version before credentials became one opaque reference (their job
// data held the App's `installationId` and `repositoryId`) still run after an upgrade: the worker acts
// as the same installation, for the same repository.
import pino from 'pino';
import type { Probot } from 'probot';
import { describe, expect, it } from 'vitest';
import { runJobData } from '../../src/forge/run-job-data.ts';
import { appCredentialRef, appInstallationOf } from '../../src/github/credential-ref.ts';
import { createRunRunner } from '../../src/github/run-runner.ts';
import { storedEventRunner } from '../../src/github/webhook-intake.ts';
import type { WebhookTrigger } from '../../src/github/webhook-trigger.ts';
import type { EventData } from '../../src/jobs/run-store.ts';
import { openSqliteStore } from '../../src/jobs/sqlite-store.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { jobData } from '../support/job-data.ts';

/** A Probot that records which installation it was asked to act as, with an Octokit that records the calls a test needs. */
function recordingApp() {
  const installations: number[] = [];
  const updated: { comment_id: number; body: string }[] = [];
  const octokit = {
    hook: { before: () => undefined },
    rest: { issues: { updateComment: async (p: { comment_id: number; body: string }) => (updated.push(p), { data: {} }) } },
  };
  const app = {
    auth: async (id?: number) => (installations.push(id ?? 0), octokit),
    log: pino({ level: 'silent' }),
  } as unknown as Probot;
  return { app, installations, updated };
}

const options = {
  runDeps: { sandbox: createProcessSandbox(), artifactsRoot: '/nonexistent', tmpRoot: '/tmp' },
  installationToken: () => Promise.reject(new Error('no token in this test')),
};

describe('job data stored before the credential reference', () => {
  it('a run stored with installationId and repositoryId reads as the App’s reference', async () => {
    const store = await openSqliteStore(null);
    const { credentialRef: _, ...current } = jobData('run-old');
    await store.enqueue(
      {
        runId: 'run-old',
        key: current.key,
        trigger: 'label',
        data: { ...current, installationId: 4242, repositoryId: 99, statusCommentId: 55 },
      },
      'alice',
      'd1',
    );
    const job = await store.get('run-old');
    const data = runJobData(job!);
    expect(appInstallationOf(data.credentialRef)).toEqual({ installationId: 4242, repositoryId: 99 });
    expect(data.credentialRef).toBe(appCredentialRef({ installationId: 4242, repositoryId: 99 }));
    expect(data).toMatchObject({ runId: 'run-old', statusCommentId: 55, plan: current.plan });

    // Its worker acts as that installation: here, telling the person who asked that the run was given up.
    const { app, installations, updated } = recordingApp();
    await createRunRunner(app, options).onAbandoned({ ...job!, outcome: 'its worker stopped' });
    expect(installations).toEqual([4242]);
    expect(updated).toMatchObject([{ comment_id: 55, body: expect.stringContaining('could not finish: its worker stopped') }]);
    await store.close();
  });

  it('a delivery stored with installationId is handled as that installation', async () => {
    const store = await openSqliteStore(null);
    const payload = { repository: { id: 99, name: 'shop', owner: { login: 'acme' } }, installation: { id: 4242 } };
    await store.acceptEvent({ delivery: 'd-old', name: 'issues.labeled', payload, installationId: 4242 } as unknown as EventData);
    const job = await store.claim('worker', 10_000, 'event');
    const handled: string[] = [];
    const trigger: WebhookTrigger = {
      event: 'issues.labeled',
      worthStoring: () => true,
      handle: async (delivery) => void handled.push(delivery.id),
    };
    const { app, installations } = recordingApp();
    const outcome = await storedEventRunner(app, [trigger], { ...options, queue: null as never })(job!, {
      signal: new AbortController().signal,
      report: () => undefined,
    });
    expect(outcome).toEqual({ state: 'done', outcome: 'handled' });
    expect(installations).toEqual([4242]);
    expect(handled).toEqual(['d-old']);
    await store.close();
  });
});
