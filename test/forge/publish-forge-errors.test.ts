// Publication decides on the forge's typed errors (docs/design.md §4.4): a rate limit or an unavailable
// forge is tried again and, if it lasts, the verified patch is kept and can be published again; a
// refusal is named and not retried. Over the in-memory stand-in forge and a real bare remote.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForgeError } from '../../src/core/forge-error.ts';
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import { publishResult } from '../../src/forge/publish-result.ts';
import type { RunPlan } from '../../src/forge/run-plan.ts';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';
import { createMemoryForge, type MemoryForge } from '../support/memory-forge.ts';
import { greenResult } from '../support/sample-run-result.ts';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

async function publish(forge: MemoryForge) {
  const work = await makeRepo({ 'src/discounts.js': '  if (quantity > tier.minQuantity) {\n' });
  const remote = await mkdtemp(join(tmpdir(), 'fixloop-remote-'));
  dirs.push(work, remote);
  git(remote, 'clone', '-q', '--bare', work, '.');
  const result = greenResult();
  result.repository.sha = git(work, 'rev-parse', 'HEAD').trim();
  result.patch =
    'diff --git a/src/discounts.js b/src/discounts.js\n--- a/src/discounts.js\n+++ b/src/discounts.js\n@@ -1 +1 @@\n-  if (quantity > tier.minQuantity) {\n+  if (quantity >= tier.minQuantity) {\n';
  const plan: RunPlan = {
    kind: 'label',
    owner: 'acme',
    repo: 'shop',
    number: 3,
    isPullRequest: false,
    title: 'Discount off by one',
    actor: 'writer',
    deliveryId: null,
    goal: '',
    instructions: '',
    cloneUrl: remote,
    pushUrl: remote,
    ref: 'main',
    sha: result.repository.sha,
    baseRef: null,
    target: { kind: 'pull-request', base: 'main' },
    commentId: null,
  };
  const publication = await publishResult({
    forge,
    plan,
    config: repoConfigSchema.parse({}),
    result,
    report: '## Verified fix',
    tmpRoot: tmpdir(),
    retryDelaysMs: [1, 1],
  });
  return { publication, remote, runId: result.runId };
}

const tries = (forge: MemoryForge, method: string) => forge.calls.filter((c) => c === method).length;

describe('publication on forge failures', () => {
  it('tries an unavailable forge again, and opens the pull request when it answers', async () => {
    const forge = createMemoryForge();
    forge.failNext(
      'openPullRequest',
      new ForgeError('unavailable', 'Bad Gateway'),
      new ForgeError('rate_limited', 'API rate limit exceeded'),
    );
    const { publication } = await publish(forge);
    expect(tries(forge, 'openPullRequest')).toBe(3);
    expect(publication.verdict.conclusion).toBe('success');
    expect(forge.opened).toHaveLength(1);
  });

  it('keeps the patch when the forge stays unavailable, and says how to publish it again', async () => {
    const forge = createMemoryForge();
    forge.failNext('openPullRequest', ...[1, 2, 3].map(() => new ForgeError('unavailable', 'Service Unavailable')));
    const { publication, remote, runId } = await publish(forge);
    expect(tries(forge, 'openPullRequest')).toBe(3);
    expect(publication).toMatchObject({
      pullRequest: null,
      verdict: { conclusion: 'failure', title: 'Verified, not published' },
    });
    expect(publication.status).toContain('verified a fix but could not publish it: the forge did not answer');
    expect(publication.status).toContain("The verified patch is kept with the run's artifacts.");
    expect(publication.status).toContain(`fixloop publish ${runId}`);
    // The branch was pushed before the forge failed: the patch is on the remote too.
    expect(git(remote, 'branch', '--list', 'fixloop/*').trim()).toMatch(/^fixloop\/3-/);
  });

  it('names a refusal clearly and does not try again', async () => {
    const forge = createMemoryForge();
    forge.failNext('openPullRequest', new ForgeError('forbidden', 'Resource not accessible by integration'));
    const { publication } = await publish(forge);
    expect(tries(forge, 'openPullRequest')).toBe(1);
    expect(publication.status).toContain(
      "the forge refused: fixloop's access to this repository does not allow it (Resource not accessible by integration)",
    );
    expect(publication.status).toContain("The verified patch is kept with the run's artifacts.");
    expect(publication.status).not.toContain('fixloop publish');
  });

  it('names a clash with an existing pull request', async () => {
    const forge = createMemoryForge();
    forge.failNext('openPullRequest', new ForgeError('conflict', 'A pull request already exists'));
    const { publication } = await publish(forge);
    expect(tries(forge, 'openPullRequest')).toBe(1);
    expect(publication.status).toContain('clashes with what is there');
  });

  it('does not wait for a rate limit that resets much later: the patch is kept', async () => {
    const forge = createMemoryForge();
    forge.failNext('cloneAuth', new ForgeError('rate_limited', 'API rate limit exceeded', { retryAfterMs: 3_600_000 }));
    const { publication } = await publish(forge);
    expect(tries(forge, 'cloneAuth')).toBe(1);
    expect(publication.status).toContain("the forge's rate limit was reached");
  });
});
