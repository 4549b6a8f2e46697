// A trigger as a value: the webhook event it answers, what in a payload makes a delivery worth
// storing, and the handler a stored delivery goes to. A new trigger is one file in src/triggers/ that
// declares one of these, plus its registration line in src/github/triggers.ts; the GitHub adapter checks the
// payload type against GitHub's webhook types there and does the rest (intake, inbox, forge, config).
import type { TriggerDeps } from './trigger-deps.ts';

/** What every payload says of its sender: bots, fixloop included, never start anything. */
export interface SentBy {
  sender?: { login?: string; type?: string } | null;
}

/** A stored delivery: its id (the run keeps it) and its payload. */
export interface Delivery<Payload> {
  id: string;
  payload: Payload;
}

/** Who fixloop is on this server: its own check suites never start a run. */
export interface Self {
  appId: number | undefined;
}

// Function-typed properties rather than methods: the adapter's check of the payload type against
// GitHub's is then strict (methods would be compared both ways).
export interface Trigger<Name extends string, Payload extends SentBy> {
  /** The webhook event and its action, `event.action`. */
  readonly event: Name;
  /** Whether a delivery can concern fixloop, from its payload alone (no API call): only those are stored. */
  readonly concerns: (payload: Payload, self: Self) => boolean;
  /** The stored delivery's handling: a run started, a reply, or silence. */
  readonly handle: (delivery: Delivery<Payload>, deps: TriggerDeps) => Promise<void>;
}

export function worthStoring<Payload extends SentBy>(trigger: Trigger<string, Payload>, payload: Payload, self: Self): boolean {
  return payload.sender?.type !== 'Bot' && trigger.concerns(payload, self);
}
