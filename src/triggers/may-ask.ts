// Who may ask (docs/design.md §3.1.3): the requester's role on the repository must reach the configured
// minimum; anyone else gets a short reply and nothing starts.
import type { Logger } from 'pino';
import type { RepoConfig } from '../core/repo-config.ts';
import type { Forge } from '../forge/forge.ts';
import { permissionRefusal } from '../forge/messages.ts';
import { reaches } from '../forge/permission.ts';

export async function mayAsk(forge: Forge, log: Logger, actor: string, number: number, config: RepoConfig): Promise<boolean> {
  const minimum = config.triggers.minPermission;
  const actual = await forge.permission(actor);
  if (reaches(actual, minimum)) return true;
  log.info({ actor, permission: actual, minimum, number }, 'request refused: permission');
  await forge.comment(number, permissionRefusal(actor, minimum));
  return false;
}
