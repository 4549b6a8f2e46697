// The intake (docs/design.md §4.1): a delivery that can concern fixloop is stored before the webhook is
// answered; the inbox's workers hand it later to its trigger with a Context rebuilt from the stored
// delivery, so a reply never waits behind a run and a crash after the answer loses nothing.
import { Context, type Probot } from 'probot';
import type { JobQueue, JobRunner } from '../jobs/job-queue.ts';
import type { EventData } from '../jobs/run-store.ts';
import { triggerDepsFromContext, type TriggerDepsOptions } from './context-trigger-deps.ts';
import { appCredentialRef, appInstallationOf } from './credential-ref.ts';
import { abortRequestsWith, withDeadline } from './delivery-deadline.ts';
import type { SourcePayload, WebhookTrigger } from './webhook-trigger.ts';

export function registerIntake(
  app: Probot,
  triggers: readonly WebhookTrigger[],
  inbox: JobQueue,
  appId: number | undefined,
): void {
  const byEvent = triggersByEvent(triggers);
  app.on(
    triggers.map((trigger) => trigger.event),
    async (context) => {
      const name = `${context.name}.${(context.payload as { action?: string }).action}`;
      const trigger = byEvent.get(name);
      if (!trigger?.worthStoring(context.payload, { appId })) return;
      const source = context.payload as SourcePayload;
      const installationId = source.installation?.id ?? 0;
      // Sent by no installation (a test delivery from the App's settings): there is no one to act as.
      if (!installationId) return void context.log.warn({ delivery: context.id, event: name }, NO_INSTALLATION);
      const credentialRef = appCredentialRef({ installationId, repositoryId: source.repository.id });
      const fresh = await inbox.accept({ delivery: context.id, name, payload: context.payload, credentialRef });
      if (!fresh) context.log.info({ delivery: context.id }, 'delivery already handled');
    },
  );
}

/** The inbox's worker: one stored delivery, handed to its trigger. */
export function storedEventRunner(
  app: Probot,
  triggers: readonly WebhookTrigger[],
  options: TriggerDepsOptions & { deliveryDeadlineMs?: number },
): JobRunner {
  const byEvent = triggersByEvent(triggers);
  return async (job) => {
    const data = job.data as StoredEvent;
    const trigger = byEvent.get(data.name);
    if (!trigger) return { state: 'failed', outcome: `no handler for ${data.name}` };
    const [event = ''] = data.name.split('.');
    const log = app.log.child({ delivery: data.delivery, event: data.name });
    const installationId = installationOfDelivery(data);
    if (!installationId) {
      log.warn(NO_INSTALLATION);
      return { state: 'failed', outcome: `${data.name}: ${NO_INSTALLATION}` };
    }
    const deadlineMs = options.deliveryDeadlineMs ?? 60_000;
    const deadline = AbortSignal.timeout(deadlineMs);
    try {
      const octokit = await app.auth(installationId);
      abortRequestsWith(octokit, deadline);
      const context = new Context(
        { id: data.delivery, name: event, payload: data.payload } as ConstructorParameters<typeof Context>[0],
        octokit,
        log,
      );
      await withDeadline(
        trigger.handle(
          { id: data.delivery, payload: data.payload },
          triggerDepsFromContext(app, context, data.payload as SourcePayload, options),
        ),
        deadline,
        deadlineMs,
      );
    } catch (error) {
      // The delivery ends failed, visible in `fixloop runs`, and said once here with what went wrong.
      const reason = error instanceof Error ? error.message : String(error);
      log.error({ reason }, 'delivery failed');
      return { state: 'failed', outcome: `${data.name}: ${reason}` };
    }
    return { state: 'done', outcome: 'handled' };
  };
}

/** A delivery as stored, by this version or (with the installation's id beside the payload) an older one. */
type StoredEvent = Omit<EventData, 'credentialRef'> & { credentialRef?: string; installationId?: number };

function installationOfDelivery(data: StoredEvent): number {
  if (typeof data.credentialRef === 'string') return appInstallationOf(data.credentialRef).installationId;
  return data.installationId ?? 0;
}

const NO_INSTALLATION =
  'delivery ignored: it names no installation (the App must be installed on the repository; test deliveries from the settings page have none)';

function triggersByEvent(triggers: readonly WebhookTrigger[]): Map<string, WebhookTrigger> {
  return new Map(triggers.map((trigger) => [trigger.event, trigger]));
}
