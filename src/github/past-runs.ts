// How many runs fixloop has made on an issue or pull request, counted from GitHub itself: every run
// leaves one status comment with its marker. The GitHub Action has no run store across workflow runs,
// so its failing-check loop guard counts these instead. Every kind of run counts (the App counts only
// failing-check runs): stricter, never looser.
import { statusMarker } from '../forge/status-comment.ts';
import type { TokenOctokit } from './token-octokit.ts';

/** The start every status comment has, whatever its run. */
const STATUS_PREFIX = `${statusMarker('').split('run=')[0]}run=`;

export function pastRunsOnGitHub(octokit: TokenOctokit, owner: string, repo: string): (key: string) => Promise<number> {
  return async (key) => {
    const number = Number(/#(\d+)$/.exec(key)?.[1]);
    if (!Number.isInteger(number) || number < 1) return 0;
    let count = 0;
    for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: number,
      per_page: 100,
    })) {
      count += page.data.filter((c) => c.body?.startsWith(STATUS_PREFIX)).length;
    }
    return count;
  };
}
