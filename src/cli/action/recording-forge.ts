// The forge the GitHub Action hands the App's code: the same Octokit forge, plus what the action must
// tell afterwards (the pull request it opened or pushed to, the replies it gave, for the outputs and
// the step summary), and the token note on the pull requests it opens.
import type { Forge, PullRequestInfo } from '../../forge/forge.ts';

export interface ForgeRecord {
  /** The pull requests opened by this run, and those read (a push target's URL), by number. */
  pullRequests: Map<number, string>;
  opened: string | null;
  /** Comments posted (replies, the status comment's first form). */
  comments: string[];
}

export function recordingForge(forge: Forge, pullRequestNote: string): { forge: Forge; record: ForgeRecord } {
  const record: ForgeRecord = { pullRequests: new Map(), opened: null, comments: [] };
  const wrapped: Forge = {
    owner: forge.owner,
    repo: forge.repo,
    cloneAuth: () => forge.cloneAuth(),
    permission: (user) => forge.permission(user),
    react: (id, content) => forge.react(id, content),
    async comment(issue, body) {
      const id = await forge.comment(issue, body);
      record.comments.push(body);
      return id;
    },
    updateComment: (id, body) => forge.updateComment(id, body),
    findComment: (issue, marker) => forge.findComment(issue, marker),
    addLabels: (issue, labels) => forge.addLabels(issue, labels),
    async pullRequest(number): Promise<PullRequestInfo> {
      const pr = await forge.pullRequest(number);
      record.pullRequests.set(number, pr.htmlUrl);
      return pr;
    },
    async openPullRequest(pr) {
      const opened = await forge.openPullRequest({ ...pr, body: `${pr.body}\n\n---\n${pullRequestNote}` });
      record.pullRequests.set(opened.number, opened.htmlUrl);
      record.opened = opened.htmlUrl;
      return opened;
    },
    updatePullRequestBody: (number, body) => forge.updatePullRequestBody(number, body),
    startStatus: (sha, summary) => forge.startStatus(sha, summary),
    completeStatus: (id, outcome) => forge.completeStatus(id, outcome),
  };
  return { forge: wrapped, record };
}
