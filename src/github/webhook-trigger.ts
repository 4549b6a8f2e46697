// A trigger (src/triggers/trigger.ts) registered on GitHub: its payload type is checked against
// GitHub's webhook types for its event, then erased, because a stored delivery comes back from the
// inbox as JSON. The event name it was stored under says which payload it is.
import type { Context } from 'probot';
import type { Delivery, SentBy, Self, Trigger } from '../triggers/trigger.ts';
import type { TriggerDeps } from '../triggers/trigger-deps.ts';
import { worthStoring } from '../triggers/trigger.ts';

/** Every webhook event name Probot knows, with and without the action. */
export type EventName = Context['name'];

/** What the adapter itself reads of a delivery it handles: where it came from, for the forge and the token. */
export interface SourcePayload {
  repository: { id: number; name: string; owner: { login: string } };
  installation?: { id: number } | null;
}

/** A registered trigger, its payload no longer typed. */
export interface WebhookTrigger {
  readonly event: EventName;
  worthStoring(payload: unknown, self: Self): boolean;
  handle(delivery: Delivery<unknown>, deps: TriggerDeps): Promise<void>;
}

/**
 * Registers a trigger. It compiles only when GitHub's payload for the event has every field the
 * trigger and the adapter read, with the types they expect: the rest argument is empty then, and
 * otherwise names the mismatch (`NoInfer`: it must not steer the inference of `E` and `P`).
 */
export function onGitHub<E extends EventName, P extends SentBy>(
  trigger: Trigger<E, P>,
  ..._conforms: NoInfer<Context<E>['payload'] extends P & SourcePayload ? [] : [mismatch: `the ${E} payload does not match what the trigger reads`]>
): WebhookTrigger {
  // The casts stand on the check above: a delivery is stored and handled under its own event name.
  return {
    event: trigger.event,
    worthStoring: (payload, self) => worthStoring(trigger, payload as P, self),
    handle: (delivery, deps) => trigger.handle(delivery as Delivery<P>, deps),
  };
}
