// The GitHub App on a failing lint check, end to end against the GitHub stand-in: a workflow run whose
// failed job runs `npm run lint` on a pull request. The failed step comes from GitHub's jobs API and
// its command from the workflow file at the failing commit; the run makes it the gate, the tests
// guarding, and opens a pull request with the fix into the pull request's branch. And a failing
// `npm test` whose only failing test is flaky: a reply that says so, a neutral check, no patch.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { git } from '../support/git-fixture.ts';
import { examplePayload, mockConfig, mockInstallationTokens, type Payload } from '../support/github-app-harness.ts';
import { checkResponseAgainstOpenApi, openApiExample } from '../support/openapi-response.ts';
import { OWNER, REPO, startScenario, type Scenario } from '../support/app-scenario.ts';
import { fullSuite } from '../support/suite-tier.ts';

let s: Scenario;
beforeEach(async () => {
  s = await startScenario();
});
afterEach(async () => {
  await s.close();
});

const MODULES = resolve(import.meta.dirname, '../../node_modules');
const WORKFLOW = [
  'name: CI',
  'on: [pull_request]',
  'jobs:',
  '  test:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - uses: actions/checkout@v4',
  '      - run: npm ci',
  '      - run: npm test',
  '  lint:',
  '    name: Lint',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - uses: actions/checkout@v4',
  '      - run: npm ci',
  '      - run: npm run lint',
  '',
].join('\n');
const PROJECT = {
  '.gitignore': 'node_modules\n',
  '.github/workflows/ci.yml': WORKFLOW,
  'package.json':
    '{ "name": "shop", "type": "module", "private": true, "scripts": { "test": "node --test", "lint": "eslint src" } }\n',
  'eslint.config.js':
    "export default [{ files: ['**/*.js'], languageOptions: { sourceType: 'module' }, rules: { 'no-unused-vars': 'error' } }];\n",
  'src/add.js': 'export function add(a, b) {\n  return a + b;\n}\n',
  'test/add.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/add.js';\ntest('adds', () => assert.equal(add(1, 2), 3));\n",
};
const CONFIG = [
  'test:',
  '  command: node --test',
  'setup:',
  `  command: ln -sfn ${MODULES} node_modules`,
  'triggers:',
  '  failingChecks: true',
  'repair:',
  '  exploreTime: 0',
  'assessment:',
  '  enabled: false',
  '',
].join('\n');
const RUN_ID = 30433642;

/** GitHub's answer to the jobs of the run: `test` passed and `Lint` failed at its `npm run lint` step, or the other way round. */
function jobsAnswer(sha: string, failed: 'Lint' | 'test' = 'Lint'): Payload {
  const answer = openApiExample<Payload>('job-paginated');
  const [template] = answer.jobs as Payload[];
  const job = (id: number, name: string, conclusion: string, steps: Array<[string, string]>) => ({
    ...template,
    id,
    run_id: RUN_ID,
    name,
    head_sha: sha,
    // The schema requires it; the documented example predates it.
    created_at: template?.started_at,
    conclusion,
    steps: steps.map(([step, outcome], i) => ({ ...template?.steps[0], name: step, conclusion: outcome, number: i + 1 })),
  });
  return {
    total_count: 2,
    jobs: [
      job(1, 'test', failed === 'test' ? 'failure' : 'success', [
        ['Set up job', 'success'],
        ['Run npm test', failed === 'test' ? 'failure' : 'success'],
      ]),
      job(2, 'Lint', failed === 'Lint' ? 'failure' : 'success', [
        ['Set up job', 'success'],
        ['Run actions/checkout@v4', 'success'],
        ['Run npm ci', 'success'],
        ['Run npm run lint', failed === 'Lint' ? 'failure' : 'success'],
      ]),
    ],
  };
}

function failedWorkflowRun(cloneUrl: string, sha: string): Payload {
  const payload = examplePayload('workflow_run', 'completed', (p: Payload) => p.workflow_run.pull_requests.length > 0);
  Object.assign(payload.workflow_run, {
    id: RUN_ID,
    name: 'CI',
    path: '.github/workflows/ci.yml',
    conclusion: 'failure',
    head_sha: sha,
    head_branch: 'changes',
  });
  Object.assign(payload.workflow_run.pull_requests[0], { number: 2 });
  // The example's repository is another one: the App's is the labeled-issue example's.
  payload.repository = structuredClone(examplePayload('issues', 'labeled').repository);
  payload.repository.clone_url = cloneUrl;
  payload.repository.default_branch = 'main';
  Object.assign(payload.sender, { login: 'Codertocat', type: 'User' });
  return payload;
}

describe('the GitHub App on a failing lint check', () => {
  // Full tier: a lint check as the gate in test/integration/cli-checks.test.ts, a failing check's
  // trigger in app-pull-requests.test.ts.
  it.runIf(fullSuite)(
    'reads the failed step from the workflow, makes `npm run lint` the gate, and opens the fix as a pull request',
    { timeout: 240_000 },
    async () => {
      const { h } = s;
      const work = await s.makeWork(PROJECT);
      git(work, 'checkout', '-q', '-b', 'changes');
      await writeFile(join(work, 'src/add.js'), `const unused = 1;\n\n${PROJECT['src/add.js']}`);
      git(work, 'commit', '-q', '-am', 'Add a constant');
      const head = git(work, 'rev-parse', 'HEAD').trim();
      const cloneUrl = await s.publish(work);
      const repo = { full_name: `${OWNER}/${REPO}`, clone_url: cloneUrl };

      mockInstallationTokens(h, 2);
      mockConfig(h, OWNER, REPO, CONFIG);
      h.scope.get(`/repos/${OWNER}/${REPO}/pulls/2`).reply(200, {
        number: 2,
        title: 'Add a constant',
        body: '',
        html_url: `https://github.com/${OWNER}/${REPO}/pull/2`,
        head: { ref: 'changes', sha: head, repo },
        base: { ref: 'main', sha: '0'.repeat(40), repo },
      });
      const jobs = jobsAnswer(head);
      const jobsPath = `/repos/${OWNER}/${REPO}/actions/runs/${RUN_ID}/jobs`;
      expect(checkResponseAgainstOpenApi({ method: 'GET', path: jobsPath, status: 200, body: jobs })).toEqual([]);
      h.scope.get(jobsPath).query({ filter: 'latest', per_page: 100 }).reply(200, jobs);
      h.scope
        .get(`/repos/${OWNER}/${REPO}/contents/${encodeURIComponent('.github/workflows/ci.yml')}`)
        .query({ ref: head })
        .reply(200, WORKFLOW);
      const statusOf = s.mockStatusComment(2, 810);
      s.mockCheckRun(90);
      h.scope
        .post(`/repos/${OWNER}/${REPO}/pulls`)
        .reply(201, { number: 3, html_url: `https://github.com/${OWNER}/${REPO}/pull/3` });

      await h.receive('workflow_run', failedWorkflowRun(cloneUrl, head));
      await s.options.queue.drain();

      expect(h.finish()).toEqual([]);
      const pr = s.bodiesOf(/^POST \/repos\/.*\/pulls$/)[0] ?? {};
      expect(pr).toMatchObject({ base: 'changes', draft: false });
      expect(pr.body).toContain('### Checks');
      expect(pr.body).toContain('`npm run lint`');
      expect(statusOf().at(-1)).toContain('opened #3');
      const runId = /run=([a-z0-9-]+)/.exec(String(pr.body))?.[1] ?? '';
      const result = JSON.parse(await readFile(join(s.artifacts, runId, 'result.json'), 'utf8')) as RunResult;
      expect(result.status).toBe('tests_green');
      expect(result.checks?.commands).toEqual(['npm run lint']);
      expect(result.events.map((e) => e.message)).toContain(
        'the failing step `npm run lint` is no test suite: it is the gate (a check), the tests guarding against regressions',
      );
      expect(result.attempts.map((a) => a.engine)).toEqual(['fixers', 'repair']);
      expect(result.patch).toContain('-const unused = 1;');
      // The fix is a commit on top of the pull request's head.
      git(s.bare(), 'merge-base', '--is-ancestor', head, String(pr.head));
    },
  );
});

describe('the GitHub App on a check that failed only on a flaky test', () => {
  it(
    'reproduces the failure, runs the failing test again, and replies that it is flaky: a neutral check, no pull request',
    {
      timeout: 240_000,
    },
    async () => {
      const { h } = s;
      // `flaky` fails on its first run (the reproduction's baseline) and passes after: flaky by construction.
      const counter = join(await mkdtemp(join(tmpdir(), 'fixloop-flaky-counter-')), 'runs');
      const flakyTest = [
        "import { test } from 'node:test';",
        "import assert from 'node:assert/strict';",
        "import { readFileSync, writeFileSync } from 'node:fs';",
        "import { add } from '../src/add.js';",
        "test('adds', () => assert.equal(add(1, 2), 3));",
        "test('flaky', () => {",
        `  const n = Number((() => { try { return readFileSync(${JSON.stringify(counter)}, 'utf8'); } catch { return '0'; } })()) + 1;`,
        `  writeFileSync(${JSON.stringify(counter)}, String(n));`,
        "  assert.notEqual(n, 1, 'the first run fails');",
        '});',
        '',
      ].join('\n');
      const work = await s.makeWork({ ...PROJECT, 'test/add.test.js': flakyTest });
      git(work, 'checkout', '-q', '-b', 'changes');
      const head = git(work, 'rev-parse', 'HEAD').trim();
      const cloneUrl = await s.publish(work);
      const repo = { full_name: `${OWNER}/${REPO}`, clone_url: cloneUrl };

      // One token: the reproduction's clone; nothing is pushed.
      mockInstallationTokens(h, 1);
      mockConfig(h, OWNER, REPO, CONFIG);
      h.scope.get(`/repos/${OWNER}/${REPO}/pulls/2`).reply(200, {
        number: 2,
        title: 'Add a test',
        body: '',
        html_url: `https://github.com/${OWNER}/${REPO}/pull/2`,
        head: { ref: 'changes', sha: head, repo },
        base: { ref: 'main', sha: '0'.repeat(40), repo },
      });
      h.scope
        .get(`/repos/${OWNER}/${REPO}/actions/runs/${RUN_ID}/jobs`)
        .query({ filter: 'latest', per_page: 100 })
        .reply(200, jobsAnswer(head, 'test'));
      h.scope
        .get(`/repos/${OWNER}/${REPO}/contents/${encodeURIComponent('.github/workflows/ci.yml')}`)
        .query({ ref: head })
        .reply(200, WORKFLOW);
      const statusOf = s.mockStatusComment(2, 811);
      const checkRun = s.mockCheckRun(91);

      await h.receive('workflow_run', failedWorkflowRun(cloneUrl, head));
      await s.options.queue.drain();

      // No pull request was asked for: nock would have refused it.
      expect(h.finish()).toEqual([]);
      const reply = statusOf().at(-1) ?? '';
      expect(reply).toContain('the check failed only on flaky tests');
      expect(reply).toContain('- `flaky`: failed 1 of 4 runs');
      expect(checkRun().at(-1)).toMatchObject({ conclusion: 'neutral', output: { title: 'Flaky tests: nothing to repair' } });
    },
  );
});
