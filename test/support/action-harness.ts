// `fixloop action` as a GitHub Actions runner runs it, for the end-to-end tests: a child process with
// the runner's environment (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_API_URL on a GitHub Enterprise
// Server style path, ...), an event file, the GitHub stand-in for the API, a real git remote over HTTP
// that demands the token as a header, a runner's checkout in GITHUB_WORKSPACE, and the internet shut
// behind a watching proxy. Built per test; `close()` takes it all down.
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUGGY_SHOP } from '../fixtures/shop.ts';
import { statusMarker } from '../../src/forge/status-comment.ts';
import { startFakeGitHub, type FakeGitHub, type FakeGitHubOptions } from './fake-github.ts';
import { git, makeRepo, removeAll } from './git-fixture.ts';
import { createBareRepoFrom, startGitHttpServer, type GitHttpServer } from './git-http-server.ts';
import { examplePayload, type Payload } from './github-app-harness.ts';
import { startInternetGuard, type InternetGuard } from './internet-guard.ts';
import { checkAgainstOpenApi } from './openapi-check.ts';
import { checkResponseAgainstOpenApi, openApiExample } from './openapi-response.ts';
import { runCli, type CliRun } from './run-cli.ts';

export const OWNER = 'Codertocat';
export const REPO = 'Hello-World';

export interface ActionRun extends CliRun {
  outputs: Record<string, string>;
  summary: string;
}

export interface Published {
  cloneUrl: string;
  /** The runner's checkout of the default branch. */
  workspace: string;
  /** The tip of the extra branch, when one was asked for. */
  head: string;
}

export interface ActionHarness {
  token: string;
  server: GitHttpServer;
  runnerTemp: string;
  internet: InternetGuard;
  /** The stand-in started for this test. */
  github(): FakeGitHub;
  /**
   * The stand-in, serving `options.config` as the repository's `.github/fixloop.yml` (where the
   * action reads its settings) with `QUIET_SETTINGS` after it, unless `loud` names what stays on.
   */
  startGitHub(options: Omit<FakeGitHubOptions, 'token'> & { loud?: 'assessment' }): Promise<FakeGitHub>;
  /** The buggy shop (with a test that fails if the token reaches the code) as `hello-world.git`; `branch` adds a branch with one more commit. */
  publishShop(options?: {
    main?: Record<string, string>;
    branch?: { name: string; files: Record<string, string> };
  }): Promise<Published>;
  /** Runs `fixloop action` on `event` (a payload, or the event file's raw text). */
  runAction(eventName: string, event: Payload | string, workspace: string, env?: Record<string, string>): Promise<ActionRun>;
  /** Requests that GitHub would refuse, and answers the stand-in gave from its opt-in maps that GitHub would not give. */
  openApiProblems(): string[];
  /** JSON bodies of the requests sent to `METHOD /path` routes matching `route`, in order. */
  bodies(route: RegExp): Payload[];
  bare(): string;
  tempDir(): Promise<string>;
  close(): Promise<void>;
}

// No case here is about the repair engine's exploration after its first plausible candidate
// (cli-repair's and explore-plausible's are) nor, but for one, about the assessment (assessment.test.ts
// and app-e2e are): both are off where the action reads its settings, which spares each green run the
// candidates after the first plausible one, a checkout and three suite runs.
const NO_EXPLORATION = 'repair:\n  exploreTime: 0\n';
const QUIET_SETTINGS = `${NO_EXPLORATION}assessment:\n  enabled: false\n`;

export async function startActionHarness(): Promise<ActionHarness> {
  const dirs: string[] = [];
  const token = `ghs_${randomBytes(18).toString('hex')}`;
  const server = await startGitHttpServer({
    requiredAuthorization: `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`,
  });
  const internet = await startInternetGuard();
  const runnerTemp = await mkdtemp(join(tmpdir(), 'fixloop-runner-'));
  dirs.push(runnerTemp);
  let github: FakeGitHub | null = null;
  const stub = (): FakeGitHub => {
    if (!github) throw new Error('startGitHub() first');
    return github;
  };
  const tempDir = async () => {
    const dir = await makeRepo({}, { git: false });
    dirs.push(dir);
    return dir;
  };

  return {
    token,
    server,
    runnerTemp,
    internet,
    github: stub,
    async startGitHub({ loud, ...options }) {
      const quiet = loud === 'assessment' ? NO_EXPLORATION : QUIET_SETTINGS;
      github = await startFakeGitHub({ ...options, config: options.config + quiet, token });
      return github;
    },
    async publishShop(options = {}) {
      const work = await makeRepo({
        ...BUGGY_SHOP,
        ...options.main,
        'test/no-token.test.js': leakCheck(token),
      });
      dirs.push(work);
      let head = '';
      if (options.branch) {
        git(work, 'checkout', '-q', '-b', options.branch.name);
        for (const [path, text] of Object.entries(options.branch.files)) await writeFile(join(work, path), text);
        git(work, 'commit', '-q', '--allow-empty', '-am', 'Rework the discount');
        head = git(work, 'rev-parse', 'HEAD').trim();
        git(work, 'checkout', '-q', 'main');
      }
      const cloneUrl = await createBareRepoFrom(server, 'hello-world', work);
      const workspace = join(runnerTemp, '..', `${runnerTemp.split('/').pop()}-workspace`);
      dirs.push(workspace);
      git(tmpdir(), 'clone', '-q', join(server.root, 'hello-world.git'), workspace);
      return { cloneUrl, workspace, head };
    },
    async runAction(eventName, event, workspace, env = {}) {
      const eventPath = join(runnerTemp, 'event.json');
      const outputPath = join(runnerTemp, 'output.txt');
      const summaryPath = join(runnerTemp, 'summary.md');
      await writeFile(eventPath, typeof event === 'string' ? event : JSON.stringify(event));
      await Promise.all([writeFile(outputPath, ''), writeFile(summaryPath, '')]);
      const result = await runCli(['action'], {
        cwd: workspace,
        env: {
          ...internet.env,
          GITHUB_EVENT_NAME: eventName,
          GITHUB_EVENT_PATH: eventPath,
          GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
          GITHUB_API_URL: `http://${stub().host}/api/v3`,
          GITHUB_SERVER_URL: `http://${stub().host}`,
          GITHUB_WORKSPACE: workspace,
          GITHUB_RUN_ID: '9001',
          GITHUB_RUN_ATTEMPT: '1',
          GITHUB_OUTPUT: outputPath,
          GITHUB_STEP_SUMMARY: summaryPath,
          RUNNER_TEMP: runnerTemp,
          'INPUT_GITHUB-TOKEN': token,
          GITHUB_TOKEN: '',
          FIXLOOP_TOKEN_KIND: 'workflow',
          FIXLOOP_SANDBOX: 'process',
          ...env,
        },
      });
      return {
        ...result,
        outputs: parseOutputs(await readFile(outputPath, 'utf8')),
        summary: await readFile(summaryPath, 'utf8'),
      };
    },
    openApiProblems() {
      const requests = stub().requests;
      const sent = requests.flatMap((r) =>
        checkAgainstOpenApi({ method: r.method, path: r.path, body: r.body ?? undefined }).map(
          (p) => `${r.method} ${r.path}: ${p}`,
        ),
      );
      const answered = requests
        .filter((r) => OPT_IN_ANSWERS.test(r.path.split('?')[0] ?? '') && r.status === 200)
        .flatMap((r) =>
          checkResponseAgainstOpenApi({ method: r.method, path: r.path, status: r.status, body: r.response }).map(
            (p) => `answer to ${r.method} ${r.path}: ${p}`,
          ),
        );
      return [...sent, ...answered];
    },
    bodies: (route) =>
      stub()
        .requests.filter((r) => route.test(`${r.method} ${r.path.split('?')[0]}`))
        .map((r) => r.body as Payload),
    bare: () => join(server.root, 'hello-world.git'),
    tempDir,
    async close() {
      await Promise.all([github?.close(), server.close(), internet.close()]);
      await removeAll(dirs);
    },
  };
}

/** The routes the stand-in answers from its opt-in `pulls` and `comments` maps. */
const OPT_IN_ANSWERS = /^\/repos\/[^/]+\/[^/]+\/(pulls\/\d+|issues\/\d+\/comments)$/;

/** A real example payload of an event that has no action (`push`), deep-copied. */
export function actionlessExample(event: string): Payload {
  const groups = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as Array<{
    name: string;
    examples: Payload[];
  }>;
  const found = groups.find((g) => g.name === event)?.examples.find((e) => e.action === undefined);
  if (!found) throw new Error(`no ${event} example without an action in @octokit/webhooks-examples`);
  return structuredClone(found);
}

/** A runner's event file: no installation (that is a webhook to an App), the remote's clone URL, the shop's repository. */
export function forRepository(payload: Payload, cloneUrl: string): Payload {
  delete payload.installation;
  if (payload.repository.full_name !== `${OWNER}/${REPO}`)
    payload.repository = structuredClone(examplePayload('issues', 'labeled').repository);
  payload.repository.clone_url = cloneUrl;
  payload.repository.default_branch = 'main';
  return payload;
}

/** `GET /repos/{owner}/{repo}/pulls/{number}` as GitHub answers it: its documented example, made this pull request. */
export function pullRequestAnswer(pr: {
  number: number;
  head: { ref: string; sha: string };
  cloneUrl: string;
  title?: string;
  body?: string;
}): Payload {
  const answer = openApiExample<Payload>('pull-request');
  const repository = (repo: Payload): Payload => ({
    ...repo,
    name: REPO,
    full_name: `${OWNER}/${REPO}`,
    clone_url: pr.cloneUrl,
    owner: { ...repo.owner, login: OWNER },
  });
  Object.assign(answer, {
    number: pr.number,
    title: pr.title ?? 'Rework the discount',
    body: pr.body ?? 'Simpler code.',
    html_url: pullRequestUrl(pr.number),
    // GitHub's own example leaves out the `type` its schema requires of a team: none are asked here.
    requested_teams: [],
    head: {
      ...answer.head,
      label: `${OWNER}:${pr.head.ref}`,
      ref: pr.head.ref,
      sha: pr.head.sha,
      repo: repository(answer.head.repo),
    },
    base: { ...answer.base, label: `${OWNER}:main`, ref: 'main', repo: repository(answer.base.repo) },
  });
  return answer;
}

export function pullRequestUrl(number: number): string {
  return `http://example.invalid/${OWNER}/${REPO}/pull/${number}`;
}

/** A status comment an earlier fixloop run left on an issue or pull request, as GitHub lists it. */
export function statusCommentAnswer(id: number, runId: string, text: string): Payload {
  return { ...openApiExample<Payload>('issue-comment'), id, body: `${statusMarker(runId)}\n${text}` };
}

/** A test in the repository itself that fails if the token reached the repository's code (only its hash is written down). */
function leakCheck(secret: string): string {
  const hash = createHash('sha256').update(secret).digest('hex');
  return (
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { createHash } from 'node:crypto';\n" +
    `const HASH = '${hash}';\n` +
    "const sha = (v) => createHash('sha256').update(v).digest('hex');\n" +
    "test('the token is not in the environment', () => assert.ok(!Object.values(process.env).some((v) => v && sha(v) === HASH)));\n"
  );
}

/** GITHUB_OUTPUT's `name<<DELIMITER` entries, as the runner reads them. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([\w-]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!m) continue;
    const end = lines.indexOf(m[2] ?? '', i + 1);
    outputs[m[1] ?? ''] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return outputs;
}

/** Every file under `dir`, concatenated (the clones' git objects are compressed: fixloop's own files are what can leak). */
export async function readAll(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name), 'utf8').catch(() => '')),
  );
  return texts.join('\n');
}
