// One runner event through the App's own triggers (src/github/triggers.ts): the same filter (bots and
// events that cannot concern fixloop are dropped before any request), the same handler, the same
// permission check and config loading, fed by the event file and the workflow's token instead of a
// webhook and an installation.
import type { Logger } from 'pino';
import { applyOverrides, type ConfigOverrides } from '../../config/apply-overrides.ts';
import type { StoredJob } from '../../jobs/run-store.ts';
import { triggerDepsFor } from '../../github/context-trigger-deps.ts';
import { WORKFLOW_TOKEN_REF } from '../../github/credential-ref.ts';
import { createOctokitForge } from '../../github/octokit-forge.ts';
import { pastRunsOnGitHub } from '../../github/past-runs.ts';
import { eventContext, tokenOctokit } from '../../github/token-octokit.ts';
import { TRIGGERS } from '../../github/triggers.ts';
import type { Forge } from '../../forge/forge.ts';
import type { ActionEnv } from './action-env.ts';
import type { RunnerEvent } from './event-file.ts';
import { createOneRunQueue } from './one-run-queue.ts';
import { recordingForge, type ForgeRecord } from './recording-forge.ts';
import { tokenNote } from './token-note.ts';

export type Handled =
  { kind: 'ignored'; reason: string } | { kind: 'handled'; forge: Forge; record: ForgeRecord; job: StoredJob | null };

export async function handleEvent(env: ActionEnv, event: RunnerEvent, overrides: ConfigOverrides, log: Logger): Promise<Handled> {
  const trigger = TRIGGERS.find((t) => t.event === event.name);
  if (!trigger)
    return {
      kind: 'ignored',
      reason: `fixloop does not answer \`${event.name}\` (it answers ${TRIGGERS.map((t) => `\`${t.event}\``).join(', ')})`,
    };
  // The Action has no app id of its own: its check runs belong to GitHub Actions, whose events the
  // workflow's token does not trigger.
  if (!trigger.worthStoring(event.payload, { appId: undefined }))
    return {
      kind: 'ignored',
      reason: `this \`${event.name}\` event does not concern fixloop (a bot's, or not a fixloop request)`,
    };

  const { repository } = event.payload;
  const octokit = tokenOctokit(env.token, env.apiUrl, log);
  const base = createOctokitForge({
    octokit,
    owner: repository.owner.login,
    repo: repository.name,
    installationToken: async () => env.token,
  });
  const { forge, record } = recordingForge(base, tokenNote(env.tokenKind));
  const queue = createOneRunQueue(pastRunsOnGitHub(octokit, repository.owner.login, repository.name));
  const context = eventContext(env.deliveryId, event.event, event.payload, octokit, log);
  const deps = triggerDepsFor({ context, forge, log, credentialRef: WORKFLOW_TOKEN_REF, queue });
  const withOverrides =
    Object.keys(overrides).length === 0
      ? deps
      : {
          ...deps,
          config: async (replyTo: number | null) => {
            const config = await deps.config(replyTo);
            return config && applyOverrides(config, overrides);
          },
        };
  await trigger.handle({ id: env.deliveryId, payload: event.payload }, withOverrides);
  return { kind: 'handled', forge, record, job: queue.started() };
}
