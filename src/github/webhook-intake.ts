// The intake (DESIGN.md §4.1): a delivery that can concern fixloop is stored before the webhook is
// answered; the inbox's workers handle it later with a Context rebuilt from the stored delivery, so
// a reply never waits behind a run and a crash after the answer loses nothing.
import { Context, type Probot } from 'probot';
import type { JobQueue, JobRunner } from '../jobs/job-queue.ts';
import type { EventData } from '../jobs/run-store.ts';
import { HANDLED_EVENTS, worthHandling, type HandledEvent } from '../triggers/worth-handling.ts';
import type { AnyContext, WebhookHandler } from './webhook-handlers.ts';

export function registerIntake(app: Probot, inbox: JobQueue, appId: number | undefined): void {
  app.on([...HANDLED_EVENTS], async (context) => {
    const name = `${context.name}.${(context.payload as { action?: string }).action}` as HandledEvent;
    if (!worthHandling(name, context.payload, appId)) return;
    const fresh = await inbox.accept({ delivery: context.id, name, payload: context.payload, installationId: context.payload.installation?.id ?? 0 });
    if (!fresh) context.log.info({ delivery: context.id }, 'delivery already handled');
  });
}

/** The inbox's worker: one stored delivery, handed to its handler. */
export function storedEventRunner(app: Probot, handlers: Map<HandledEvent, WebhookHandler>): JobRunner {
  return async (job) => {
    const data = job.data as EventData;
    const handler = handlers.get(data.name as HandledEvent);
    if (!handler) return { state: 'failed', outcome: `no handler for ${data.name}` };
    const [event = ''] = data.name.split('.');
    const log = app.log.child({ delivery: data.delivery, event: data.name });
    const context = new Context({ id: data.delivery, name: event, payload: data.payload } as ConstructorParameters<typeof Context>[0], await app.auth(data.installationId), log) as unknown as AnyContext;
    await handler(context);
    return { state: 'done', outcome: 'handled' };
  };
}
