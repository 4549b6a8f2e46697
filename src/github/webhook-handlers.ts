// The webhook events fixloop handles, each read from its Probot context into the triggers' typed
// event, with the trigger's dependencies (the repository's forge, the fix service, its config).
import type { Logger } from 'pino';
import type { Context, Probot } from 'probot';
import { configErrorMessage } from '../forge/messages.ts';
import { createFixService } from '../forge/fix-service.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { onComment } from '../triggers/on-comment.ts';
import { onFailingCheck } from '../triggers/on-failing-check.ts';
import { onLabel } from '../triggers/on-label.ts';
import { onReview } from '../triggers/on-review.ts';
import type { TriggerDeps } from '../triggers/trigger-deps.ts';
import type { HandledEvent } from '../triggers/worth-handling.ts';
import { loadRepoConfig } from './load-repo-config.ts';
import { createOctokitForge } from './octokit-forge.ts';

export type AnyContext = Context<HandledEvent>;
export type WebhookHandler = (context: AnyContext) => Promise<void>;

export interface WebhookHandlerOptions {
  queue: JobQueue;
  installationToken(app: Probot, installationId: number, repositoryId: number): Promise<string>;
}

export function webhookHandlers(app: Probot, options: WebhookHandlerOptions): Map<HandledEvent, WebhookHandler> {
  const depsFor = (context: AnyContext) => triggerDeps(app, context, options);
  const handlers = new Map<HandledEvent, WebhookHandler>();
  const on = <E extends HandledEvent>(event: E, handler: (context: Context<E>, deps: TriggerDeps) => Promise<void>) =>
    handlers.set(event, (context) => handler(context as unknown as Context<E>, depsFor(context)));

  on('issues.labeled', ({ id, payload }, deps) => onLabel({ deliveryId: id, repository: payload.repository, issue: payload.issue, label: payload.label?.name ?? '', sender: payload.sender.login }, deps));
  on('issue_comment.created', ({ id, payload }, deps) =>
    onComment({ deliveryId: id, repository: payload.repository, issue: payload.issue, comment: { id: payload.comment.id, body: payload.comment.body }, sender: payload.sender.login }, deps),
  );
  on('pull_request_review.submitted', ({ id, payload }, deps) =>
    onReview({ deliveryId: id, repository: payload.repository, pullRequest: { number: payload.pull_request.number, headRef: payload.pull_request.head.ref }, reviewBody: payload.review.body ?? '', sender: payload.sender.login }, deps),
  );
  on('check_suite.completed', ({ id, payload }, deps) => {
    const suite = payload.check_suite;
    return onFailingCheck({ deliveryId: id, repository: payload.repository, headSha: suite.head_sha, name: suite.app?.name ?? 'check suite', pullRequests: suite.pull_requests.map((p) => p.number), sender: payload.sender?.login ?? null }, deps);
  });
  on('workflow_run.completed', ({ id, payload }, deps) => {
    const run = payload.workflow_run;
    return onFailingCheck({ deliveryId: id, repository: payload.repository, headSha: run.head_sha, name: run.name ?? 'workflow', pullRequests: run.pull_requests.flatMap((p) => (p ? [p.number] : [])), sender: payload.sender?.login ?? null }, deps);
  });
  return handlers;
}

function triggerDeps(app: Probot, context: AnyContext, options: WebhookHandlerOptions): TriggerDeps {
  const { repository } = context.payload;
  const installationId = context.payload.installation?.id ?? 0;
  const log = context.log as unknown as Logger;
  const forge = createOctokitForge({
    octokit: context.octokit,
    owner: repository.owner.login,
    repo: repository.name,
    installationToken: () => options.installationToken(app, installationId, repository.id),
  });
  const service = createFixService(forge, log, { installationId, repositoryId: repository.id }, { queue: options.queue });
  return {
    forge,
    service,
    queue: options.queue,
    log,
    async config(replyTo) {
      const loaded = await loadRepoConfig(context);
      if (loaded.ok) return loaded.config;
      log.warn({ repo: `${forge.owner}/${forge.repo}` }, 'invalid .github/fixloop.yml');
      if (replyTo !== null) await forge.comment(replyTo, configErrorMessage(loaded.message));
      return null;
    },
  };
}
