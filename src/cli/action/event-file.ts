// The event the runner hands over: GITHUB_EVENT_NAME and the webhook payload GitHub wrote to
// GITHUB_EVENT_PATH. It must be about the repository the workflow runs in.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../usage-error.ts';
import type { SourcePayload } from '../../github/webhook-trigger.ts';
import type { ActionEnv } from './action-env.ts';

export interface RunnerEvent {
  /** `event.action`, the name the triggers are registered under (e.g. `issues.labeled`). */
  name: string;
  /** The event alone (`issues`), as Probot's context names it. */
  event: string;
  payload: SourcePayload & { action?: string };
}

export async function readRunnerEvent(env: ActionEnv): Promise<RunnerEvent> {
  let payload: unknown;
  try {
    payload = JSON.parse(await readFile(env.eventPath, 'utf8'));
  } catch (error) {
    throw new UsageError(`GITHUB_EVENT_PATH \`${env.eventPath}\` is not a JSON event: ${(error as Error).message}`);
  }
  if (!isSource(payload))
    throw new UsageError(
      `GITHUB_EVENT_PATH \`${env.eventPath}\`: the event names no repository (fixloop answers repository events only)`,
    );
  const named = `${payload.repository.owner.login}/${payload.repository.name}`;
  if (named.toLowerCase() !== env.repository.toLowerCase()) {
    throw new UsageError(
      `the event is about \`${named}\`, but GITHUB_REPOSITORY is \`${env.repository}\`: fixloop works only on the workflow's own repository`,
    );
  }
  const action = typeof payload.action === 'string' ? payload.action : '';
  return { name: action ? `${env.eventName}.${action}` : env.eventName, event: env.eventName, payload };
}

function isSource(payload: unknown): payload is RunnerEvent['payload'] {
  const repository = (payload as { repository?: { id?: unknown; name?: unknown; owner?: { login?: unknown } } } | null)
    ?.repository;
  return typeof repository?.id === 'number' && typeof repository.name === 'string' && typeof repository.owner?.login === 'string';
}
