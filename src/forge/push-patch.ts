// Publishes a verified patch as a commit: a fresh clone of the base commit (never the work tree the
// repository's code ran in), the patch applied, one commit, pushed with the token as an HTTP header.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CodedError } from '../core/coded-error.ts';
import type { CloneAuth } from '../core/clone-auth.ts';
import { applyPatch } from '../workspace/create-workspace.ts';
import { git, gitMessage } from '../workspace/git.ts';

export class PublishError extends CodedError<'PUSH_FAILED' | 'PATCH_DOES_NOT_APPLY'> {}

export interface PushPatchOptions {
  /** Where the base commit is fetched from (a fork, for a fork's pull request). */
  fetchUrl: string;
  pushUrl: string;
  auth: CloneAuth;
  baseSha: string;
  patch: string;
  branch: string;
  message: string;
  tmpRoot: string;
}

/** Returns the new commit's SHA. */
export async function pushPatch(options: PushPatchOptions): Promise<string> {
  const dir = await mkdtemp(join(options.tmpRoot, 'fixloop-publish-'));
  try {
    const g = git(dir, { auth: options.auth });
    try {
      await g.init();
      // Fetching the one commit keeps a large repository's publication cheap. From a fork, the
      // commits must travel whole: the base repository lacks their history and refuses a shallow push.
      const depth = options.fetchUrl === options.pushUrl ? ['--depth=1'] : [];
      await g.raw(['fetch', '--quiet', ...depth, options.fetchUrl, options.baseSha]);
      await g.raw(['checkout', '--quiet', '--detach', options.baseSha]);
    } catch (error) {
      throw new PublishError(
        'PUSH_FAILED',
        `could not fetch ${options.baseSha.slice(0, 12)} to publish the patch: ${gitMessage(error)}`,
      );
    }
    try {
      await applyPatch(dir, options.patch);
    } catch (error) {
      throw new PublishError('PATCH_DOES_NOT_APPLY', error instanceof Error ? error.message : String(error));
    }
    await g.raw(['add', '-A']);
    await g.raw(['commit', '--quiet', '--no-verify', '-m', options.message]);
    const sha = (await g.revparse(['HEAD'])).trim();
    try {
      await g.raw(['push', '--quiet', '--no-verify', options.pushUrl, `HEAD:refs/heads/${options.branch}`]);
    } catch (error) {
      throw new PublishError('PUSH_FAILED', `could not push branch \`${options.branch}\`: ${gitMessage(error)}`);
    }
    return sha;
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
