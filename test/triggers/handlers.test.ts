// The trigger handlers over neutral events and the forge port, without GitHub: who may ask, the slash command's dispatch,
// and the failing-check loop guard.
import { describe, expect, it } from 'vitest';
import type { AssignmentEvent, CommentEvent, FailingCheckEvent } from '../../src/triggers/forge-events.ts';
import { onAssignment } from '../../src/triggers/on-assign.ts';
import { onComment } from '../../src/triggers/on-comment.ts';
import { onFailingCheck } from '../../src/triggers/on-failing-check.ts';
import { onLabel } from '../../src/triggers/on-label.ts';
import { onReview } from '../../src/triggers/on-review.ts';
import { fakeDeps, pullRequest } from './fake-trigger-deps.ts';

const repository = { name: 'shop', owner: 'acme', cloneUrl: 'https://github.com/acme/shop.git', defaultBranch: 'main' };
const issue = { number: 3, title: 'Off by one', body: 'At 100 exactly.', isChangeRequest: false };
const label = (sender: string, name = 'fixloop') => ({
  deliveryId: 'd1',
  repository,
  subject: issue,
  label: name,
  requester: sender,
});
const comment = (body: string, sender = 'alice'): CommentEvent => ({
  deliveryId: 'd1',
  repository,
  subject: issue,
  comment: { id: 9, text: body },
  requester: sender,
});
const check = (over: Partial<FailingCheckEvent> = {}): FailingCheckEvent => ({
  deliveryId: 'd1',
  repository,
  headSha: 'a'.repeat(40),
  checkName: 'CI',
  changeRequests: [7],
  requester: 'alice',
  ...over,
});

describe('who may ask', () => {
  it('starts a run for someone with write permission', async () => {
    const deps = fakeDeps({ permissions: { alice: 'write' } });
    await onLabel(label('alice'), deps);
    expect(deps.started.map((p) => [p.kind, p.number, p.actor])).toEqual([['label', 3, 'alice']]);
    expect(deps.comments).toEqual([]);
  });

  it('answers anyone below the minimum, and starts nothing', async () => {
    const deps = fakeDeps({ permissions: { mallory: 'triage' } });
    await onComment(comment('/fix', 'mallory'), deps);
    expect(deps.started).toEqual([]);
    expect(deps.comments).toHaveLength(1);
    expect(deps.comments[0]?.body).toContain('@mallory');
    expect(deps.comments[0]?.body).toContain('**write** permission');
  });

  it('follows the configured minimum', async () => {
    const deps = fakeDeps({ permissions: { bob: 'triage' }, config: { triggers: { minPermission: 'triage' } } });
    await onLabel(label('bob'), deps);
    expect(deps.started).toHaveLength(1);
  });

  it('ignores another label without asking anyone', async () => {
    const deps = fakeDeps({ permissions: { alice: 'admin' } });
    await onLabel(label('alice', 'bug'), deps);
    expect(deps.started).toEqual([]);
    expect(deps.comments).toEqual([]);
  });

  it('a review on a fork named like fixloop’s branch starts nothing', async () => {
    const deps = fakeDeps({ permissions: { alice: 'write' }, pr: pullRequest({ headRef: 'fixloop/3-abc', fromFork: true }) });
    await onReview(
      {
        deliveryId: 'd1',
        repository,
        changeRequest: { number: 7, headRef: 'fixloop/3-abc' },
        text: 'also 0',
        requester: 'alice',
      },
      deps,
    );
    expect(deps.started).toEqual([]);
  });
});

describe('the slash command', () => {
  it('/fix with instructions starts a run that carries them', async () => {
    const deps = fakeDeps({ permissions: { alice: 'write' } });
    await onComment(comment('/fix the discount applies from 100 on'), deps);
    expect(deps.started.map((p) => [p.kind, p.instructions, p.commentId])).toEqual([
      ['command', 'the discount applies from 100 on', 9],
    ]);
  });

  it('/fix help and a mistyped sub-command answer with the help text, whoever asks', async () => {
    const deps = fakeDeps();
    await onComment(comment('/fix help', 'stranger'), deps);
    await onComment(comment('/fix stauts', 'stranger'), deps);
    expect(deps.comments.map((c) => c.body.split('\n')[0])).toEqual([
      expect.stringContaining('**fixloop**'),
      '`/fix stauts` is not a command.',
    ]);
    expect(deps.started).toEqual([]);
  });

  it('/fix cancel needs permission too', async () => {
    const deps = fakeDeps({ permissions: { alice: 'write' } });
    await onComment(comment('/fix cancel', 'stranger'), deps);
    expect(deps.cancelled).toEqual([]);
    await onComment(comment('/fix cancel'), deps);
    expect(deps.cancelled).toEqual(['acme/shop#3']);
    expect(deps.comments.at(-1)?.body).toContain('nothing to cancel');
  });

  it('follows the configured command', async () => {
    const deps = fakeDeps({ permissions: { alice: 'write' }, config: { triggers: { command: '/green' } } });
    await onComment(comment('/fix'), deps);
    expect(deps.started).toEqual([]);
    await onComment(comment('/green'), deps);
    expect(deps.started).toHaveLength(1);
  });
});

describe('the failing-check loop guard', () => {
  const on = { triggers: { failingChecks: true, maxRunsPerPullRequest: 2 } };

  it('is off unless the repository asks for it', async () => {
    const deps = fakeDeps();
    await onFailingCheck(check(), deps);
    expect(deps.started).toEqual([]);
  });

  it('starts runs on a pull request up to the limit', async () => {
    const below = fakeDeps({ config: on, checkRuns: 1 });
    await onFailingCheck(check(), below);
    expect(below.started.map((p) => [p.kind, p.sha])).toEqual([['check', 'a'.repeat(40)]]);
    const reached = fakeDeps({ config: on, checkRuns: 2 });
    await onFailingCheck(check(), reached);
    expect(reached.started).toEqual([]);
  });

  it("gives fixloop's own branch one run in all", async () => {
    const deps = fakeDeps({ config: on, checkRuns: 1, pr: pullRequest({ headRef: 'fixloop/3-abc' }) });
    await onFailingCheck(check(), deps);
    expect(deps.started).toEqual([]);
  });

  it("names the failed step's command in the plan, as the forge read it from its CI, and goes on without one it cannot read", async () => {
    const deps = fakeDeps({ config: on });
    const asked: Array<[string, string]> = [];
    deps.forge.failingCommand = async (source, sha) => (asked.push([source, sha]), 'npm run lint');
    await onFailingCheck(check({ source: 'workflow-run:7:.github/workflows/ci.yml' }), deps);
    expect(asked).toEqual([['workflow-run:7:.github/workflows/ci.yml', 'a'.repeat(40)]]);
    expect(deps.started[0]).toMatchObject({
      failedCommand: 'npm run lint',
      goal: expect.stringContaining('Its failing step runs `npm run lint`.'),
    });
    const broken = fakeDeps({ config: on });
    broken.forge.failingCommand = async () => {
      throw new Error('forbidden');
    };
    await onFailingCheck(check({ source: 'workflow-run:7:' }), broken);
    expect(broken.started).toHaveLength(1);
    expect(broken.started[0]?.failedCommand).toBeUndefined();
  });

  it('ignores a failure on a commit the pull request has moved past', async () => {
    const deps = fakeDeps({ config: on });
    await onFailingCheck(check({ headSha: 'b'.repeat(40) }), deps);
    expect(deps.started).toEqual([]);
  });
});

describe('an assignment to fixloop', () => {
  const assignment = (over: Partial<AssignmentEvent> = {}): AssignmentEvent => ({
    deliveryId: 'd1',
    repository,
    subject: issue,
    assignee: 'fixloop-bot',
    assigned: true,
    requester: 'alice',
    ...over,
  });
  const configured = { config: { triggers: { assignee: 'fixloop-bot' } } };

  it("starts a run for a writer's assignment to the configured login, as the label does", async () => {
    const deps = fakeDeps({ ...configured, permissions: { alice: 'write' } });
    await onAssignment(assignment({ assignee: 'Fixloop-Bot' }), deps);
    expect(deps.started).toEqual([
      expect.objectContaining({
        kind: 'assign',
        number: 3,
        actor: 'alice',
        goal: 'Off by one\n\nAt 100 exactly.',
        target: { kind: 'pull-request', base: 'main' },
      }),
    ]);
    expect(deps.comments).toEqual([]);
  });

  it("answers a reader's assignment with the refusal, and starts nothing", async () => {
    const deps = fakeDeps({ ...configured, permissions: { rita: 'read' } });
    await onAssignment(assignment({ requester: 'rita' }), deps);
    expect(deps.started).toEqual([]);
    expect(deps.comments).toEqual([
      { issue: 3, body: expect.stringContaining('@rita fixloop only runs for people with **write** permission') },
    ]);
  });

  it('ignores an assignment to someone else, an unconfigured assignee, and a pull request, without asking anyone', async () => {
    for (const [deps, event] of [
      [fakeDeps(configured), assignment({ assignee: 'bob' })],
      [fakeDeps(), assignment()],
      [fakeDeps(configured), assignment({ subject: { ...issue, isChangeRequest: true } })],
    ] as const) {
      await onAssignment(event, deps);
      expect(deps.started).toEqual([]);
      expect(deps.comments).toEqual([]);
      expect(deps.cancelled).toEqual([]);
    }
  });

  it("cancels the issue's run when a writer unassigns it, as /fix cancel does, and refuses a reader", async () => {
    const deps = fakeDeps({ ...configured, permissions: { alice: 'write', rita: 'read' } });
    await onAssignment(assignment({ assigned: false }), deps);
    expect(deps.cancelled).toEqual(['acme/shop#3']);
    expect(deps.comments.at(-1)?.body).toContain('nothing to cancel');
    await onAssignment(assignment({ assigned: false, requester: 'rita' }), deps);
    expect(deps.cancelled).toEqual(['acme/shop#3']);
    expect(deps.comments.at(-1)?.body).toContain('@rita fixloop only runs for people with');
  });
});
