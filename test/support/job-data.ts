// A stored run's data for queue and store tests: a plan and a config as a trigger would make them.
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import type { RunJobData } from '../../src/forge/run-job-data.ts';

export function jobData(runId: string, key = 'acme/shop#1'): RunJobData {
  return {
    runId,
    key,
    credentialRef: '{"installationId":1,"repositoryId":2}',
    statusCommentId: null,
    config: repoConfigSchema.parse({ test: { command: 'npm test' } }),
    plan: {
      kind: 'label',
      owner: 'acme',
      repo: 'shop',
      number: 1,
      isPullRequest: false,
      title: 't',
      actor: 'alice',
      deliveryId: 'd',
      goal: 'g',
      instructions: '',
      cloneUrl: 'https://example.invalid/acme/shop.git',
      pushUrl: 'https://example.invalid/acme/shop.git',
      ref: 'main',
      sha: null,
      baseRef: null,
      target: { kind: 'pull-request', base: 'main' },
      commentId: null,
    },
  };
}
