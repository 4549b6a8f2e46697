// `fixloop publish <id>`: publish again a run whose verified patch could not be published (a refused
// push, GitHub down). The stored result and patch are used as they are: nothing is re-run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Forge } from '../forge/forge.ts';
import { publishResult } from '../forge/publish-result.ts';
import { storedRunStatus } from '../forge/status-comment.ts';
import type { RunJobData } from '../forge/run-job-data.ts';
import { openStoredRun, storedReport, verifiedPatchOf } from './stored-run.ts';

export interface PublishOptions {
  dataDir: string;
  runId: string;
  /** The App's GitHub side for the run's repository (from the App's credentials). */
  forgeFor: (data: RunJobData) => Promise<Forge>;
  stdout: (text: string) => void;
}

export async function publishRun(options: PublishOptions): Promise<void> {
  const run = await openStoredRun(options.dataDir, options.runId);
  const scratch = await mkdtemp(join(tmpdir(), 'fixloop-publish-'));
  try {
    verifiedPatchOf(run);
    const { data } = run;
    const forge = await options.forgeFor(data);
    const publication = await publishResult({
      forge,
      plan: data.plan,
      config: data.config,
      result: run.result,
      report: await storedReport(run),
      tmpRoot: scratch,
    });
    if (!publication.pullRequest && publication.verdict.conclusion !== 'success')
      throw new Error(publication.status.replace(/\*\*/g, ''));
    const status = storedRunStatus(forge, data);
    await status.update(publication.status);
    await status.flush();
    await run.store.append(options.runId, 'published', { pullRequest: publication.pullRequest?.number ?? null });
    options.stdout(`${publication.status.replace(/\*\*/g, '')}\n`);
  } finally {
    await run.store.close();
    await rm(scratch, { recursive: true, force: true });
  }
}
