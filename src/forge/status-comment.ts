// One status comment per run, found again through a hidden marker and updated in place (docs/design.md §5):
// queued → attempt i/N → result. Updates are serialized and deduplicated so a chatty run costs a few
// API calls, and a failed update never fails the run.
import type { Logger } from 'pino';
import type { Forge } from './forge.ts';
import type { RunJobData } from './run-job-data.ts';

export function statusMarker(runId: string): string {
  return `<!-- fixloop:status run=${runId} -->`;
}

export interface StatusComment {
  update(body: string): Promise<void>;
  /** The comment's id once it exists (kept with the job, so a worker elsewhere updates the same one). */
  id(): number | null;
  /** Waits for pending updates (before the run's final one, and in tests). */
  flush(): Promise<void>;
}

export function createStatusComment(
  forge: Forge,
  issue: number,
  runId: string,
  onError: (error: unknown) => void,
  knownId: number | null = null,
): StatusComment {
  const marker = statusMarker(runId);
  let id: number | null = knownId;
  let last = '';
  let chain: Promise<void> = Promise.resolve();

  const write = async (text: string) => {
    if (text === last) return;
    if (id === null) id = await forge.findComment(issue, marker);
    if (id === null) id = await forge.comment(issue, text);
    else await forge.updateComment(id, text);
    last = text;
  };

  return {
    update(body) {
      const text = `${marker}\n${body}`;
      chain = chain.then(() => write(text)).catch(onError);
      return chain;
    },
    flush() {
      return chain;
    },
    id: () => id,
  };
}

/** The status comment of a stored run, by its id: a worker in any process updates the one the trigger posted. */
export function storedRunStatus(forge: Forge, data: RunJobData, log?: Logger): StatusComment {
  const onError = log ? (error: unknown) => log.warn({ err: String(error) }, 'status comment not updated') : () => undefined;
  return createStatusComment(forge, data.plan.number, data.runId, onError, data.statusCommentId);
}
