// The intake (DESIGN.md §4.1): a delivery that can concern fixloop is stored before the webhook is
// answered; the inbox's workers hand it later to its trigger with a Context rebuilt from the stored
// delivery, so a reply never waits behind a run and a crash after the answer loses nothing.
import { Context, type Probot } from 'probot';
import type { JobQueue, JobRunner } from '../jobs/job-queue.ts';
import type { EventData } from '../jobs/run-store.ts';
import { triggerDepsFromContext, type TriggerDepsOptions } from './context-trigger-deps.ts';
import type { SourcePayload, WebhookTrigger } from './webhook-trigger.ts';

export function registerIntake(app: Probot, triggers: readonly WebhookTrigger[], inbox: JobQueue, appId: number | undefined): void {
  const byEvent = triggersByEvent(triggers);
  app.on(triggers.map((trigger) => trigger.event), async (context) => {
    const name = `${context.name}.${(context.payload as { action?: string }).action}`;
    const trigger = byEvent.get(name);
    if (!trigger?.worthStoring(context.payload, { appId })) return;
    const installationId = (context.payload as SourcePayload).installation?.id ?? 0;
    const fresh = await inbox.accept({ delivery: context.id, name, payload: context.payload, installationId });
    if (!fresh) context.log.info({ delivery: context.id }, 'delivery already handled');
  });
}

/** The inbox's worker: one stored delivery, handed to its trigger. */
export function storedEventRunner(app: Probot, triggers: readonly WebhookTrigger[], options: TriggerDepsOptions): JobRunner {
  const byEvent = triggersByEvent(triggers);
  return async (job) => {
    const data = job.data as EventData;
    const trigger = byEvent.get(data.name);
    if (!trigger) return { state: 'failed', outcome: `no handler for ${data.name}` };
    const [event = ''] = data.name.split('.');
    const log = app.log.child({ delivery: data.delivery, event: data.name });
    const context = new Context({ id: data.delivery, name: event, payload: data.payload } as ConstructorParameters<typeof Context>[0], await app.auth(data.installationId), log);
    await trigger.handle({ id: data.delivery, payload: data.payload }, triggerDepsFromContext(app, context, data.payload as SourcePayload, options));
    return { state: 'done', outcome: 'handled' };
  };
}

function triggersByEvent(triggers: readonly WebhookTrigger[]): Map<string, WebhookTrigger> {
  return new Map(triggers.map((trigger) => [trigger.event, trigger]));
}
