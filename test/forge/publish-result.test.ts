// Publication of a green run, over a recording forge and a real git remote: a verdict on per-test
// evidence opens a ready pull request with a successful check; one on the exit code alone
// (`test.evidence: exit-code`), or a patch the assessment puts at level `review`, opens a draft with a
// neutral check.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishResult } from '../../src/forge/publish-result.ts';
import type { Forge } from '../../src/forge/forge.ts';
import type { RunPlan } from '../../src/forge/run-plan.ts';
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';
import { greenResult } from '../support/sample-run-result.ts';
import type { Assessment } from '../../src/core/assessment.ts';
import { headlineFor } from '../../src/loop/headline.ts';
import { notAssessedAssessment, reviewAssessment, verifiedAssessment } from '../support/sample-assessment.ts';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

interface Opened {
  draft: boolean;
  body: string;
}

function recordingForge(opened: Opened[]): Forge {
  const refuse = () => Promise.reject(new Error('not used by publication'));
  return {
    owner: 'octo',
    repo: 'shop',
    cloneAuth: () => Promise.resolve({ header: 'Authorization: Basic eC1hY2Nlc3MtdG9rZW46dW51c2Vk' }),
    permission: refuse,
    react: refuse,
    comment: refuse,
    updateComment: refuse,
    findComment: refuse,
    addLabels: () => Promise.resolve(),
    pullRequest: refuse,
    openPullRequest: (pr) => {
      opened.push({ draft: pr.draft, body: pr.body });
      return Promise.resolve({ number: 7, htmlUrl: 'https://github.com/octo/shop/pull/7' });
    },
    updatePullRequestBody: refuse,
    startStatus: refuse,
    completeStatus: refuse,
  };
}

/** The report as the run rendered it: publication shows it as it is, never a rendering of its own. */
const REPORT = '## fixloop: the report as the run rendered it\n';

async function publishGreen(evidence: 'per-test' | 'exit-code', assessment?: Assessment) {
  const work = await makeRepo({ 'src/discounts.js': '  if (quantity > tier.minQuantity) {\n' });
  const remote = await mkdtemp(join(tmpdir(), 'fixloop-remote-'));
  dirs.push(work, remote);
  git(remote, 'clone', '-q', '--bare', work, '.');
  const sha = git(work, 'rev-parse', 'HEAD').trim();
  const result = greenResult();
  result.repository.sha = sha;
  result.patch =
    'diff --git a/src/discounts.js b/src/discounts.js\n--- a/src/discounts.js\n+++ b/src/discounts.js\n@@ -1 +1 @@\n-  if (quantity > tier.minQuantity) {\n+  if (quantity >= tier.minQuantity) {\n';
  result.verification!.evidence = evidence;
  if (assessment) {
    result.assessment = assessment;
    result.headline = headlineFor(result);
  }
  const plan: RunPlan = {
    kind: 'label',
    owner: 'octo',
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
    sha,
    baseRef: null,
    target: { kind: 'pull-request', base: 'main' },
    commentId: null,
  };
  const opened: Opened[] = [];
  const publication = await publishResult({
    forge: recordingForge(opened),
    plan,
    config: repoConfigSchema.parse({}),
    result,
    report: REPORT,
    tmpRoot: tmpdir(),
  });
  return { publication, opened };
}

describe('publishing a green run', () => {
  it('opens a ready pull request with a successful check on per-test evidence', async () => {
    const { publication, opened } = await publishGreen('per-test');
    expect(publication.verdict.conclusion).toBe('success');
    expect(opened).toMatchObject([{ draft: false }]);
    expect(publication.verdict.summary).toBe(REPORT);
  });

  it('opens a draft with a neutral check when the exit code alone decided', async () => {
    const { publication, opened } = await publishGreen('exit-code');
    expect(publication.verdict.conclusion).toBe('neutral');
    expect(opened).toMatchObject([{ draft: true }]);
    expect(publication.pullRequest).toEqual({ number: 7, htmlUrl: 'https://github.com/octo/shop/pull/7' });
  });

  it('opens a ready pull request with a successful check at level verified', async () => {
    const { publication, opened } = await publishGreen('per-test', verifiedAssessment());
    expect(publication.verdict.conclusion).toBe('success');
    expect(opened).toMatchObject([{ draft: false }]);
    expect(publication.status).toMatch(/^✅ \*\*fixloop\*\* run `mabc123-0a1b2c`: opened #7\.\n\nVerified fix after 1 attempt/);
  });

  it('opens a draft with a neutral check at level review, titled with what to review, and asks for a review in the status comment', async () => {
    const { publication, opened } = await publishGreen('per-test', reviewAssessment());
    expect(opened).toMatchObject([{ draft: true }]);
    expect(opened[0]?.body).toContain(REPORT);
    expect(publication.verdict.conclusion).toBe('neutral');
    expect(publication.verdict.title).toMatch(
      /^Tests pass after 1 attempt .*; review 2 behaviour changes outside the failing tests: `isAbsolute\('ab\\\\c'\)`: false → true/,
    );
    expect(publication.verdict.title.length).toBeLessThanOrEqual(255);
    expect(publication.status).toMatch(
      /^🔍 \*\*fixloop\*\* run `mabc123-0a1b2c`: opened draft #7; the tests pass, review it before merging\.\n\nTests pass after 1 attempt/,
    );
    expect(publication.pullRequest).toEqual({ number: 7, htmlUrl: 'https://github.com/octo/shop/pull/7' });
  });

  it('opens a draft with a neutral check when the assessment could not look', async () => {
    const { publication, opened } = await publishGreen('per-test', notAssessedAssessment());
    expect(opened).toMatchObject([{ draft: true }]);
    expect(publication.verdict.conclusion).toBe('neutral');
    expect(publication.verdict.title).toMatch(/the assessment could not look: no changed function it can probe/);
  });
});
