// The forge port on Octokit (Probot's installation client). Every request here is one of GitHub's
// documented REST operations; the tests check each against the OpenAPI description. A run's status is
// a check run named `fixloop`; every failure becomes a ForgeError (forge-errors.ts).
import type { ProbotOctokit } from 'probot';
import type { CloneAuth } from '../core/clone-auth.ts';
import type { Forge, PullRequestInfo, StatusOutcome } from '../forge/forge.ts';
import { mappingErrors } from './forge-errors.ts';
import { permissionOf } from './permission-of.ts';
import { failingCommand } from './failing-step.ts';

type Octokit = InstanceType<typeof ProbotOctokit>;

/** GitHub refuses check-run summaries longer than this. */
const MAX_CHECK_SUMMARY = 65_535;

export interface OctokitForgeOptions {
  octokit: Octokit;
  owner: string;
  repo: string;
  /** A fresh installation token (see app-token.ts for why it is not `octokit.auth()`). */
  installationToken: () => Promise<string>;
}

export function gitAuthHeader(token: string): CloneAuth {
  return { header: `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}` };
}

export function createOctokitForge(options: OctokitForgeOptions): Forge {
  const { octokit, owner, repo } = options;
  const repoParams = { owner, repo };
  return mappingErrors<Forge>({
    owner,
    repo,
    async cloneAuth() {
      return gitAuthHeader(await options.installationToken());
    },
    async permission(username) {
      const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repoParams, username });
      return permissionOf(data as { permission?: string; role_name?: string });
    },
    async react(commentId, content) {
      await octokit.rest.reactions.createForIssueComment({ ...repoParams, comment_id: commentId, content });
    },
    async comment(issue, body) {
      const { data } = await octokit.rest.issues.createComment({ ...repoParams, issue_number: issue, body });
      return data.id;
    },
    async updateComment(commentId, body) {
      await octokit.rest.issues.updateComment({ ...repoParams, comment_id: commentId, body });
    },
    async findComment(issue, marker) {
      for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, {
        ...repoParams,
        issue_number: issue,
        per_page: 100,
      })) {
        const found = page.data.find((c) => c.body?.includes(marker));
        if (found) return found.id;
      }
      return null;
    },
    async addLabels(issue, labels) {
      if (labels.length === 0) return;
      await octokit.rest.issues.addLabels({ ...repoParams, issue_number: issue, labels });
    },
    async pullRequest(number): Promise<PullRequestInfo> {
      const { data } = await octokit.rest.pulls.get({ ...repoParams, pull_number: number });
      return {
        number,
        title: data.title,
        body: data.body ?? '',
        headRef: data.head.ref,
        headSha: data.head.sha,
        baseRef: data.base.ref,
        fromFork: data.head.repo?.full_name !== data.base.repo.full_name,
        headCloneUrl: data.head.repo?.clone_url ?? data.base.repo.clone_url,
        htmlUrl: data.html_url,
      };
    },
    async openPullRequest(pr) {
      const { data } = await octokit.rest.pulls.create({ ...repoParams, ...pr });
      return { number: data.number, htmlUrl: data.html_url };
    },
    async updatePullRequestBody(number, body) {
      await octokit.rest.pulls.update({ ...repoParams, pull_number: number, body });
    },
    failingCommand: (source, sha) => failingCommand(octokit, repoParams, source, sha),
    async startStatus(headSha, summary) {
      const { data } = await octokit.rest.checks.create({
        ...repoParams,
        name: 'fixloop',
        head_sha: headSha,
        status: 'in_progress',
        output: { title: 'fixloop is working', summary },
      });
      return String(data.id);
    },
    async completeStatus(id: string, output: StatusOutcome) {
      const summary =
        output.summary.length > MAX_CHECK_SUMMARY
          ? `${output.summary.slice(0, MAX_CHECK_SUMMARY - 40)}\n\n… (cut; see the pull request)`
          : output.summary;
      await octokit.rest.checks.update({
        ...repoParams,
        check_run_id: Number(id),
        status: 'completed',
        conclusion: output.conclusion,
        output: { title: output.title.slice(0, 255), summary },
      });
    },
  });
}
