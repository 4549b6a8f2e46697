// A trigger as a value: the neutral event it answers (src/triggers/forge-events.ts) and its handler
// (who may ask, the slash commands, the loop guards) over the forge port. A new trigger is one file in
// src/triggers/ that declares one of these; each forge's adapter binds it to its own webhooks, with
// the cheap filter of what deserves storing (GitHub's: src/github/github-events.ts and triggers.ts).
import type { TriggerDeps } from './trigger-deps.ts';

// A function-typed property rather than a method: the adapters' bindings are then checked strictly.
export interface Trigger<Event> {
  /** For logs and the adapters' lists (`label`, `comment`, `review`, `failing-check`). */
  readonly name: string;
  /** The event's handling: a run started, a reply, or silence. */
  readonly handle: (event: Event, deps: TriggerDeps) => Promise<void>;
}
