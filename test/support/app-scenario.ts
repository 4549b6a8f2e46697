// One end-to-end scenario of the GitHub App: the real app on Probot with nock for GitHub (see
// github-app-harness.ts), a real git remote over HTTP that demands the installation token, a real
// queue, sandbox and fix loop; plus the mocks every run needs.
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AppOptions } from '../../src/app.ts';
import type { SharedRunDeps } from '../../src/loop/local-run.ts';
import { installationTokenFor } from '../../src/github/app-token.ts';
import { createDurableQueue } from '../../src/jobs/durable-queue.ts';
import type { RunStore } from '../../src/jobs/run-store.ts';
import { openSqliteStore } from '../../src/jobs/sqlite-store.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { makeRepo, removeAll } from './git-fixture.ts';
import { startHarness, type Harness, type HarnessOptions, type Payload } from './github-app-harness.ts';
import { createBareRepoFrom, startGitHttpServer, type GitHttpServer } from './git-http-server.ts';

export const OWNER = 'Codertocat';
export const REPO = 'Hello-World';

export interface Scenario {
  h: Harness;
  store: RunStore;
  server: GitHttpServer;
  options: AppOptions;
  artifacts: string;
  /** Publishes a work repository (with its branches) as the remote `hello-world.git`; returns its URL. */
  publish(work: string): Promise<string>;
  makeWork(files: Record<string, string>): Promise<string>;
  bare(): string;
  permission(user: string, role: string): void;
  /** The status comment: looked up by its marker once, created, then updated in place. */
  mockStatusComment(issue: number, id: number): () => string[];
  mockCheckRun(id: number): () => Payload[];
  /** JSON bodies of the requests fixloop sent, in order, as the OpenAPI watcher recorded them. */
  bodiesOf(route: RegExp): Payload[];
  expectTokenNowhere(extra: string[]): Promise<void>;
  close(): Promise<void>;
}

/** The App with its runs' deps (`runDeps`: a process sandbox and the scenario's folders, unless given). */
export async function startScenario(runDeps: Partial<SharedRunDeps> = {}, harness: HarnessOptions = {}): Promise<Scenario> {
  const dirs: string[] = [];
  const tmp = await mkdtemp(join(tmpdir(), 'fixloop-e2e-'));
  dirs.push(tmp);
  const artifacts = join(tmp, 'runs');
  const store = await openSqliteStore(null);
  const options: AppOptions = {
    // A short lease: heartbeats (which carry progress and cancels) every second. Not shorter: on a loaded
    // 2-core CI machine the test process's event loop can stall for most of a second, a 600 ms lease then
    // expired mid-run and the job ran twice (a second check run, more tokens, no pull request).
    queue: createDurableQueue({ store, concurrency: 1, leaseMs: 3000, pollMs: 50 }),
    inbox: createDurableQueue({ store, concurrency: 1, lane: 'event', leaseMs: 5000, pollMs: 50 }),
    runDeps: { sandbox: createProcessSandbox(), artifactsRoot: artifacts, tmpRoot: tmp, ...runDeps },
    installationToken: installationTokenFor,
  };
  const h = startHarness(options, harness);
  const server = await startGitHttpServer({
    requiredAuthorization: `Basic ${Buffer.from(`x-access-token:${h.token}`).toString('base64')}`,
  });
  const bodiesOf = (route: RegExp) =>
    h.requests
      .filter((r) => route.test(`${r.method} ${r.path.replace(/^\/api\/v3/, '').split('?')[0]}`))
      .map((r) => r.body as Payload);
  const repoPath = `/repos/${OWNER}/${REPO}`;

  return {
    h,
    store,
    server,
    options,
    artifacts,
    async makeWork(files) {
      const work = await makeRepo(files);
      dirs.push(work);
      return work;
    },
    publish: (work) => createBareRepoFrom(server, 'hello-world', work),
    bare: () => join(server.root, 'hello-world.git'),
    permission(user, role) {
      h.scope
        .get(`${repoPath}/collaborators/${user}/permission`)
        .reply(200, { permission: role === 'maintain' ? 'write' : role, role_name: role, user: { login: user } });
    },
    mockStatusComment(issue, id) {
      h.scope.get(`${repoPath}/issues/${issue}/comments`).query({ per_page: 100 }).reply(200, []);
      h.scope.post(`${repoPath}/issues/${issue}/comments`).reply(201, { id });
      h.persistent().patch(`${repoPath}/issues/comments/${id}`).reply(200, { id });
      return () =>
        bodiesOf(new RegExp(`^(POST ${repoPath}/issues/${issue}/comments|PATCH ${repoPath}/issues/comments/${id})$`)).map((b) =>
          String(b.body),
        );
    },
    mockCheckRun(id) {
      h.scope.post(`${repoPath}/check-runs`).reply(201, { id });
      h.scope.patch(`${repoPath}/check-runs/${id}`).reply(200, { id });
      return () => bodiesOf(new RegExp(`^(POST|PATCH) ${repoPath}/check-runs`));
    },
    bodiesOf,
    async expectTokenNowhere(extra) {
      const seen = [
        ...h.logs,
        ...extra,
        ...server.urls,
        JSON.stringify(h.requests.filter((r) => !r.path.includes('access_tokens'))),
      ];
      const files = (await readdir(artifacts, { recursive: true, withFileTypes: true }).catch(() => []))
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name));
      for (const file of [...files, join(server.root, 'hello-world.git', 'config')]) seen.push(await readFile(file, 'utf8'));
      const encoded = Buffer.from(`x-access-token:${h.token}`).toString('base64');
      expect(server.authorizations.length).toBeGreaterThan(0);
      for (const text of seen) {
        expect(text).not.toContain(h.token);
        expect(text).not.toContain(encoded);
      }
    },
    async close() {
      await options.inbox.shutdown(0);
      await options.queue.shutdown(0);
      await store.close();
      await server.close();
      await removeAll(dirs);
    },
  };
}
