// An Octokit for a plain token (the GitHub Action's: the workflow's GITHUB_TOKEN or one it was given),
// on Probot's Octokit so that the forge, the config loader, pagination, retries and GitHub's rate
// limits behave exactly as in the App. The base URL is the runner's GITHUB_API_URL: github.com's API
// or a GitHub Enterprise Server's `https://HOST/api/v3`.
import type { Logger } from 'pino';
import { Context, ProbotOctokit } from 'probot';

export type TokenOctokit = InstanceType<typeof ProbotOctokit>;

export function tokenOctokit(token: string, apiUrl: string, log: Logger): TokenOctokit {
  return new ProbotOctokit({ auth: { token }, baseUrl: apiUrl.replace(/\/+$/, ''), log });
}

/** A Probot context for one event read from a file: the config loader reads the payload's repository. */
export function eventContext(id: string, event: string, payload: unknown, octokit: TokenOctokit, log: Logger): Context {
  return new Context(
    { id, name: event, payload } as ConstructorParameters<typeof Context>[0],
    octokit,
    log as unknown as ConstructorParameters<typeof Context>[2],
  );
}
