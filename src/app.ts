// The Probot app: thin handlers (DESIGN.md §5). Each reads its payload, decides whether it is for
// fixloop, and hands a RunPlan to the fix service; the loop runs in the job queue, never here.
import { Context, type Probot } from 'probot';
import type { Logger } from 'pino';
import type { RepoConfig } from './core/repo-config.ts';
import { createFixService } from './forge/fix-service.ts';
import type { Forge } from './forge/forge.ts';
import { loadRepoConfig } from './github/load-repo-config.ts';
import { configErrorMessage, statusAnswer } from './forge/messages.ts';
import { createOctokitForge } from './github/octokit-forge.ts';
import { createRunRunner, type RunRunnerOptions } from './github/run-runner.ts';
import type { JobQueue, JobRunner } from './jobs/job-queue.ts';
import type { EventData } from './jobs/run-store.ts';
import { planForFailingCheck, planForIssue, planForPullRequest } from './triggers/github-events.ts';
import { runKey } from './forge/run-plan.ts';
import { helpText, parseSlashCommand } from './triggers/slash-command.ts';

export interface AppOptions extends RunRunnerOptions {
  /** Fix runs (long). */
  queue: JobQueue;
  /** Webhook deliveries, stored before they are answered and handled by their own workers (quick). */
  inbox: JobQueue;
  /** Whether this process handles deliveries and runs (false: a web process that only stores them). */
  runWorkers?: boolean;
  /** fixloop's own app id: its own check suites never trigger a run. */
  appId?: number;
}

const HANDLED = ['issues.labeled', 'issue_comment.created', 'pull_request_review.submitted', 'check_suite.completed', 'workflow_run.completed'] as const;
type HandledEvent = (typeof HANDLED)[number];
type AnyContext = Context<HandledEvent>;

/**
 * Whether a delivery can concern fixloop, from its payload alone (no API call): only those are
 * stored. Bots, fixloop included, never start anything; most comments are not commands.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- webhook payloads of five events, read defensively
function worthHandling(name: HandledEvent, payload: any, appId: number | undefined): boolean {
  if (payload.sender?.type === 'Bot') return false;
  switch (name) {
    case 'issues.labeled':
      return Boolean(payload.label);
    case 'issue_comment.created':
      return payload.comment?.user?.type !== 'Bot' && typeof payload.comment?.body === 'string' && payload.comment.body.trimStart().startsWith('/');
    case 'pull_request_review.submitted':
      return payload.review?.state === 'changes_requested';
    case 'check_suite.completed':
      // fixloop's own failed check run must never start another run.
      return FAILED_CONCLUSIONS.has(payload.check_suite?.conclusion) && payload.check_suite.pull_requests?.length > 0 && !(appId !== undefined && payload.check_suite.app?.id === appId);
    case 'workflow_run.completed':
      return FAILED_CONCLUSIONS.has(payload.workflow_run?.conclusion) && payload.workflow_run.pull_requests?.length > 0;
  }
}

const DEFAULT_COMMAND = '/fix';
const FAILED_CONCLUSIONS = new Set(['failure', 'timed_out']);

export function createApp(options: AppOptions) {
  return (app: Probot): void => {
    const setup = (context: AnyContext) => {
      const { repository } = context.payload;
      const installationId = context.payload.installation?.id ?? 0;
      const forge = createOctokitForge({
        octokit: context.octokit,
        owner: repository.owner.login,
        repo: repository.name,
        installationToken: () => options.installationToken(app, installationId, repository.id),
      });
      const service = createFixService(forge, context.log as unknown as Logger, { installationId, repositoryId: repository.id }, { queue: options.queue });
      return { forge, service };
    };

    const { runner, onAbandoned } = createRunRunner(app, options);
    if (options.runWorkers !== false) options.queue.start(runner, onAbandoned).catch((error: unknown) => app.log.error({ err: String(error) }, 'the job queue did not start'));

    // The handlers, run by the inbox's workers with a Context rebuilt from the stored delivery.
    const handlers = new Map<HandledEvent, (context: AnyContext) => Promise<void>>();
    const on = <E extends HandledEvent>(event: E, handler: (context: Context<E>) => Promise<void>) => handlers.set(event, handler as unknown as (context: AnyContext) => Promise<void>);

    // Intake: store the delivery (once: a redelivery starts nothing new) and answer. Nothing else
    // happens before the 2xx, so a crash after it loses nothing.
    app.on([...HANDLED], async (context) => {
      const name = `${context.name}.${(context.payload as { action?: string }).action}` as HandledEvent;
      if (!worthHandling(name, context.payload, options.appId)) return;
      const fresh = await options.inbox.accept({ delivery: context.id, name, payload: context.payload, installationId: context.payload.installation?.id ?? 0 });
      if (!fresh) context.log.info({ delivery: context.id }, 'delivery already handled');
    });
    const handleEvent: JobRunner = async (job) => {
      const data = job.data as EventData;
      const handler = handlers.get(data.name as HandledEvent);
      if (!handler) return { state: 'failed', outcome: `no handler for ${data.name}` };
      const [event = ''] = data.name.split('.');
      const log = app.log.child({ delivery: data.delivery, event: data.name });
      const context = new Context({ id: data.delivery, name: event, payload: data.payload } as ConstructorParameters<typeof Context>[0], await app.auth(data.installationId), log) as unknown as AnyContext;
      await handler(context);
      return { state: 'done', outcome: 'handled' };
    };
    if (options.runWorkers !== false) options.inbox.start(handleEvent).catch((error: unknown) => app.log.error({ err: String(error) }, 'the webhook inbox did not start'));

    /** Config, or one reply naming the key and the reason (only when the event was clearly for fixloop). */
    const configFor = async (context: AnyContext, forge: Forge, replyTo: number | null): Promise<RepoConfig | null> => {
      const loaded = await loadRepoConfig(context);
      if (loaded.ok) return loaded.config;
      context.log.warn({ repo: `${forge.owner}/${forge.repo}` }, 'invalid .github/fixloop.yml');
      if (replyTo !== null) await forge.comment(replyTo, configErrorMessage(loaded.message));
      return null;
    };

    on('issues.labeled', async (context) => {
      const { payload } = context;
      const label = payload.label?.name ?? '';
      const { forge, service } = setup(context);
      const config = await configFor(context, forge, label === 'fixloop' ? payload.issue.number : null);
      if (!config || label !== config.triggers.label) return;
      if (!(await service.mayAsk(payload.sender.login, payload.issue.number, config))) return;
      const plan = planForIssue({ repository: payload.repository, issue: payload.issue, kind: 'label', instructions: '', commentId: null, actor: payload.sender.login, deliveryId: context.id });
      await service.start(plan, config);
    });

    on('issue_comment.created', async (context) => {
      const { payload } = context;
      const { forge, service } = setup(context);
      const number = payload.issue.number;
      const config = await configFor(context, forge, parseSlashCommand(payload.comment.body, DEFAULT_COMMAND) ? number : null);
      if (!config) return;
      const command = parseSlashCommand(payload.comment.body, config.triggers.command);
      if (!command) return;
      const key = runKey({ owner: forge.owner, repo: forge.repo, number });
      const actor = payload.sender.login;
      switch (command.kind) {
        case 'help': {
          const prefix = command.unknown ? `\`${config.triggers.command} ${command.unknown}\` is not a command.\n\n` : '';
          await forge.comment(number, prefix + helpText(config.triggers.command, config.triggers.label));
          return;
        }
        case 'status':
          await forge.comment(number, statusAnswer(await options.queue.status(key)));
          return;
        case 'cancel': {
          if (!(await service.mayAsk(actor, number, config))) return;
          const info = await options.queue.cancel(key, actor);
          context.log.info({ key, actor, runId: info?.runId }, 'cancel requested');
          await forge.comment(number, info ? `🛑 Cancelling run \`${info.runId}\` (asked by @${actor}).` : 'No **fixloop** run is active here: nothing to cancel.');
          return;
        }
        case 'fix':
        case 'retry': {
          if (!(await service.mayAsk(actor, number, config))) return;
          // `retry` repeats the last run's instructions, as stored: it survives restarts.
          const instructions = command.kind === 'retry' ? ((await options.queue.lastRun(key))?.data.plan.instructions ?? '') : command.instructions;
          const base = { repository: payload.repository, actor, deliveryId: context.id, instructions, commentId: payload.comment.id };
          const plan = payload.issue.pull_request
            ? planForPullRequest({ ...base, pr: await forge.pullRequest(number), kind: 'command', branchPrefix: config.pr.branchPrefix })
            : planForIssue({ ...base, issue: payload.issue, kind: 'command' });
          await service.start(plan, config);
          return;
        }
      }
    });

    on('pull_request_review.submitted', async (context) => {
      const { payload } = context;
      const { forge, service } = setup(context);
      const config = await configFor(context, forge, null);
      if (!config || !payload.pull_request.head.ref.startsWith(config.pr.branchPrefix)) return;
      const pr = await forge.pullRequest(payload.pull_request.number);
      if (pr.fromFork) return;
      const actor = payload.sender.login;
      if (!(await service.mayAsk(actor, pr.number, config))) return;
      const plan = planForPullRequest({ repository: payload.repository, pr, kind: 'review', instructions: payload.review.body ?? '', commentId: null, actor, deliveryId: context.id, branchPrefix: config.pr.branchPrefix });
      await service.start(plan, config);
    });

    const onFailingCheck = async (context: AnyContext, run: { headSha: string; name: string; pullRequests: number[] }) => {
      const { forge, service } = setup(context);
      const config = await configFor(context, forge, null);
      if (!config?.triggers.failingChecks) return;
      const pr = await forge.pullRequest(run.pullRequests[0] ?? 0);
      if (pr.headSha !== run.headSha) return; // an older commit failed: the pull request has moved on.
      const prKey = runKey({ owner: forge.owner, repo: forge.repo, number: pr.number });
      // Loop guard, counted in the store (so it holds across restarts and processes): fixloop's own
      // branches get one reaction in all; other pull requests a few.
      const limit = pr.headRef.startsWith(config.pr.branchPrefix) ? 1 : config.triggers.maxRunsPerPullRequest;
      const used = await options.queue.countRuns(prKey, 'check');
      if (used >= limit) {
        context.log.info({ key: prKey, used, limit }, 'failing check ignored: run limit reached');
        return;
      }
      const plan = planForFailingCheck({ repository: context.payload.repository, pr, checkName: run.name, sha: run.headSha, actor: context.payload.sender?.login ?? null, deliveryId: context.id });
      await service.start(plan, config);
    };

    on('check_suite.completed', async (context) => {
      const suite = context.payload.check_suite;
      await onFailingCheck(context, { headSha: suite.head_sha, name: suite.app?.name ?? 'check suite', pullRequests: suite.pull_requests.map((p) => p.number) });
    });

    on('workflow_run.completed', async (context) => {
      const run = context.payload.workflow_run;
      await onFailingCheck(context, { headSha: run.head_sha, name: run.name ?? 'workflow', pullRequests: run.pull_requests.flatMap((p) => (p ? [p.number] : [])) });
    });
  };
}
