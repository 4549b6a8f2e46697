// What a GitHub Actions runner hands a step (https://docs.github.com/actions/reference/variables-reference):
// the event, the repository, the API and server URLs (github.com or a GitHub Enterprise Server), the
// temp folder, and the token. Read once, checked, and named in every complaint.
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { UsageError } from '../usage-error.ts';

/** Whose token fixloop works with: it decides whether fixloop's pushes start the repository's CI. */
export type TokenKind = 'workflow' | 'provided';

export interface ActionEnv {
  eventName: string;
  eventPath: string;
  /** `owner/repo`, as the runner says. */
  repository: string;
  apiUrl: string;
  serverUrl: string;
  /** The runner's checkout, if any: fixloop clones afresh, like the App, and leaves it alone. */
  workspace: string | null;
  /** fixloop's clones, artifacts and caches: RUNNER_TEMP/fixloop, thrown away with the runner. */
  tempRoot: string;
  token: string;
  tokenKind: TokenKind;
  /** Id of this run, for the run's records: `actions-<run id>-<attempt>`. */
  deliveryId: string;
  outputPath: string | null;
  summaryPath: string | null;
}

export function readActionEnv(env: NodeJS.ProcessEnv): ActionEnv {
  const required = (name: string): string => {
    const value = env[name]?.trim();
    if (!value)
      throw new UsageError(
        `${name} is not set: \`fixloop action\` runs as a step of a GitHub Actions workflow (see docs/github-action.md)`,
      );
    return value;
  };
  const eventPath = required('GITHUB_EVENT_PATH');
  if (!existsSync(eventPath)) throw new UsageError(`GITHUB_EVENT_PATH: no such file \`${eventPath}\``);
  const repository = required('GITHUB_REPOSITORY');
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository))
    throw new UsageError(`GITHUB_REPOSITORY must be \`owner/repo\` (got \`${repository}\`)`);
  const runnerTemp = required('RUNNER_TEMP');
  if (!isAbsolute(runnerTemp)) throw new UsageError(`RUNNER_TEMP must be an absolute path (got \`${runnerTemp}\`)`);
  const input = env['INPUT_GITHUB-TOKEN']?.trim() || env.INPUT_GITHUB_TOKEN?.trim();
  const token = input || env.GITHUB_TOKEN?.trim();
  if (!token) throw new UsageError('no token: pass the `github-token` input (INPUT_GITHUB-TOKEN) or set GITHUB_TOKEN');
  return {
    eventName: required('GITHUB_EVENT_NAME'),
    eventPath,
    repository,
    apiUrl: httpUrl('GITHUB_API_URL', env.GITHUB_API_URL ?? 'https://api.github.com'),
    serverUrl: httpUrl('GITHUB_SERVER_URL', env.GITHUB_SERVER_URL ?? 'https://github.com'),
    workspace: env.GITHUB_WORKSPACE?.trim() || null,
    tempRoot: join(runnerTemp, 'fixloop'),
    token,
    tokenKind: tokenKind(env.FIXLOOP_TOKEN_KIND, Boolean(input)),
    deliveryId: env.GITHUB_RUN_ID ? `actions-${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT ?? '1'}` : `actions-${Date.now()}`,
    outputPath: env.GITHUB_OUTPUT?.trim() || null,
    summaryPath: env.GITHUB_STEP_SUMMARY?.trim() || null,
  };
}

function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${name} is not a URL: \`${value}\``);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`${name} must be an http(s) URL (got \`${value}\`)`);
  if (url.username || url.password) throw new UsageError(`${name} must not carry credentials`);
  return value.replace(/\/+$/, '');
}

/**
 * action.yml compares the input with `github.token` and says which it was (FIXLOOP_TOKEN_KIND), so
 * the token itself is never compared or passed twice. Without that word: a token given as the input
 * is taken as provided, GITHUB_TOKEN as the workflow's.
 */
function tokenKind(declared: string | undefined, fromInput: boolean): TokenKind {
  if (declared === 'workflow' || declared === 'provided') return declared;
  return fromInput ? 'provided' : 'workflow';
}
