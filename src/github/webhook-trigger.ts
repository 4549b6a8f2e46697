// A neutral trigger (src/triggers/trigger.ts) bound to a GitHub webhook: the event and action it
// answers, what in a payload makes a delivery worth storing (no API call), and how the payload becomes
// the trigger's event. The payload type is checked against GitHub's webhook types for the event, then
// erased, because a stored delivery comes back from the inbox as JSON; the event name it was stored
// under says which payload it is.
import type { Context } from 'probot';
import type { Trigger } from '../triggers/trigger.ts';
import type { TriggerDeps } from '../triggers/trigger-deps.ts';
import type { SentBy } from './webhook-payloads.ts';

/** Every webhook event name Probot knows, with and without the action. */
export type EventName = Context['name'];

/** Who fixloop is on this server: its own check suites never start a run. */
export interface Self {
  appId: number | undefined;
}

/** A stored delivery: its id (the run keeps it) and its payload. */
export interface Delivery<Payload> {
  id: string;
  payload: Payload;
}

/** What the adapter itself reads of a delivery it handles: where it came from, for the forge and the token. */
export interface SourcePayload {
  repository: { id: number; name: string; owner: { login: string } };
  installation?: { id: number } | null;
}

// Function-typed properties rather than methods: the check of the payload type against GitHub's is
// then strict (methods would be compared both ways).
export interface GitHubTrigger<Name extends EventName, Payload extends SentBy, Event> {
  /** The webhook event and its action, `event.action`. */
  readonly event: Name;
  /** Whether a delivery can concern fixloop, from its payload alone (no API call): only those are stored. */
  readonly concerns: (payload: Payload, self: Self) => boolean;
  /** The payload as the trigger's neutral event. */
  readonly toEvent: (deliveryId: string, payload: Payload) => Event;
  readonly trigger: Trigger<Event>;
}

/** A registered trigger, its payload no longer typed. */
export interface WebhookTrigger {
  readonly event: EventName;
  worthStoring(payload: unknown, self: Self): boolean;
  handle(delivery: Delivery<unknown>, deps: TriggerDeps): Promise<void>;
}

/** Bots, fixloop included, never start a run; then the trigger's own filter decides. */
export function worthStoring<Payload extends SentBy>(
  binding: Pick<GitHubTrigger<EventName, Payload, unknown>, 'concerns'>,
  payload: Payload,
  self: Self,
): boolean {
  return payload.sender?.type !== 'Bot' && binding.concerns(payload, self);
}

/**
 * Registers a trigger. It compiles only when GitHub's payload for the event has every field the
 * binding and the adapter read, with the types they expect: the rest argument is empty then, and
 * otherwise names the mismatch (`NoInfer`: it must not steer the inference of `E` and `P`).
 */
export function onGitHub<E extends EventName, P extends SentBy, Event>(
  binding: GitHubTrigger<E, P, Event>,
  ..._conforms: NoInfer<
    Context<E>['payload'] extends P & SourcePayload ? [] : [mismatch: `the ${E} payload does not match what the trigger reads`]
  >
): WebhookTrigger {
  // The casts stand on the check above: a delivery is stored and handled under its own event name.
  return {
    event: binding.event,
    worthStoring: (payload, self) => worthStoring(binding, payload as P, self),
    handle: (delivery, deps) => binding.trigger.handle(binding.toEvent(delivery.id, delivery.payload as P), deps),
  };
}
