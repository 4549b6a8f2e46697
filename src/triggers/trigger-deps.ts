// What every trigger handler works with: the forge of the repository the event came from, the fix
// service that starts runs, the run queue (status, cancel, loop guards) and the repository's config.
// No forge API here: each adapter builds these for a delivery (GitHub's: src/github/context-trigger-deps.ts).
import type { Logger } from 'pino';
import type { RepoConfig } from '../core/repo-config.ts';
import type { FixService } from '../forge/fix-service.ts';
import type { Forge } from '../forge/forge.ts';
import type { JobQueue } from '../jobs/job-queue.ts';

export interface TriggerDeps {
  forge: Forge;
  service: FixService;
  queue: JobQueue;
  log: Logger;
  /**
   * The repository's `.github/fixloop.yml`, or null after one reply naming the problem on issue
   * `replyTo` (no reply when null: the event was not clearly meant for fixloop).
   */
  config(replyTo: number | null): Promise<RepoConfig | null>;
}
