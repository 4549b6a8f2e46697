// Drives the real Probot app with real webhook payloads (@octokit/webhooks-examples, adapted) while
// nock stands in for api.github.com: net connect disabled, every request checked against GitHub's
// OpenAPI description, and no mock left pending or unmatched at the end.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import nock from 'nock';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { Probot, ProbotOctokit } from 'probot';
import { createApp, type AppOptions } from '../../src/app.ts';
import { watchScope, type CheckedRequest } from './openapi-check.ts';

interface ExampleGroup {
  name: string;
  examples: Array<Record<string, unknown> & { action?: string }>;
}
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as ExampleGroup[];

/** Example payloads are JSON from GitHub's documentation: tests adapt fields deep inside them freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Payload = Record<string, any>;

export const API = 'https://api.github.com';
export const INSTALLATION_ID = 4242;

/** A real example payload of `event` with `action`, deep-copied so a test can adapt it. */
export function examplePayload(event: string, action: string, pick: (p: Payload) => boolean = () => true): Payload {
  const group = examples.find((g) => g.name === event);
  const found = group?.examples.find((e) => e.action === action && pick(e));
  if (!found) throw new Error(`no ${event}.${action} example in @octokit/webhooks-examples`);
  const payload = structuredClone(found) as Payload;
  // Webhooks sent to a GitHub App always name the installation; the examples come from repository webhooks.
  payload.installation = { id: INSTALLATION_ID, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDI0Mg==' };
  return payload;
}

export interface Harness {
  probot: Probot;
  scope: nock.Scope;
  problems: string[];
  requests: CheckedRequest[];
  logs: string[];
  token: string;
  /** Delivers like GitHub: a new X-GitHub-Delivery id each time, unless one is given (a redelivery). */
  receive(event: string, payload: Record<string, unknown>, deliveryId?: string): Promise<void>;
  /**
   * A scope whose interceptors answer any number of times (nock's persist() applies to a whole scope,
   * so it must never be called on `scope`), still watched; each must be called at least once.
   */
  persistent(): nock.Scope;
  /** Asserts nothing pending, nothing unmatched, every request valid for GitHub; then cleans nock. */
  finish(): string[];
}

let key: string | null = null;
function privateKey(): string {
  // Made per test process: no key material lives in the repository.
  key ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return key;
}

export interface HarnessOptions {
  /** GitHub Enterprise Server: what Probot derives from GHE_HOST / GHE_PROTOCOL, e.g. https://ghe.example.com/api/v3. */
  baseUrl?: string;
  /** Real servers on loopback the app may reach besides GitHub (e.g. a scripted model server), as `host:port`. */
  allowHosts?: string[];
}

export function startHarness(options: AppOptions, harness: HarnessOptions = {}): Harness {
  // On GHE the API lives under a path (`/api/v3`); nock scopes on that base keep tests' paths GitHub's.
  const api = harness.baseUrl?.replace(/\/$/, '') ?? API;
  nock.disableNetConnect();
  const allowed = harness.allowHosts ?? [];
  for (const host of allowed) nock.enableNetConnect(host);
  const unmatched: string[] = [];
  const onNoMatch = (req: { method?: string; path?: string; url?: string }) => {
    const url = `${req.url ?? req.path}`;
    if (!allowed.some((host) => url.includes(`//${host}/`))) unmatched.push(`${req.method} ${url}`);
  };
  nock.emitter.on('no match', onNoMatch);
  const logs: string[] = [];
  const log = pino(
    { level: 'debug' },
    new Writable({ write: (chunk: Buffer, _enc, done) => (logs.push(chunk.toString()), done()) }),
  );
  const probot = new Probot({
    appId: 1,
    privateKey: privateKey(),
    log,
    ...(harness.baseUrl ? { baseUrl: harness.baseUrl } : {}),
    // Probot sets its own throttle options over any given defaults; a function applied last wins. Off in
    // tests: the throttle spaces comment creations 3 s apart, which is right for GitHub and slow here.
    Octokit: ProbotOctokit.defaults((options: Payload) => ({
      ...options,
      retry: { enabled: false },
      throttle: { ...options.throttle, enabled: false },
    })),
  });
  probot.load(createApp(options));
  const scope = nock(api);
  const { problems, requests } = watchScope(scope);
  const token = `ghs_${randomBytes(18).toString('hex')}`;
  let delivery = 0;
  return {
    probot,
    scope,
    problems,
    requests,
    logs,
    token,
    persistent() {
      const extra = nock(api).persist();
      watchScope(extra, { problems, requests });
      return extra;
    },
    async receive(event, payload, deliveryId) {
      await probot.receive({ id: deliveryId ?? `delivery-${++delivery}`, name: event, payload } as Parameters<
        Probot['receive']
      >[0]);
      // The webhook was answered once stored; its handling follows in the inbox's workers.
      await options.inbox.drain();
    },
    finish() {
      const pending = nock.pendingMocks();
      nock.emitter.removeListener('no match', onNoMatch);
      nock.cleanAll();
      nock.enableNetConnect();
      return [...pending.map((p) => `pending: ${p}`), ...unmatched.map((u) => `unmatched: ${u}`), ...problems];
    },
  };
}

/** Probot's own installation token (for context.octokit) and fixloop's narrowed one for git. */
export function mockInstallationTokens(h: Harness, git: number): void {
  const expires = new Date(Date.now() + 3_600_000).toISOString();
  h.scope
    .post(
      `/app/installations/${INSTALLATION_ID}/access_tokens`,
      (body: unknown) => !(body && typeof body === 'object' && 'repository_ids' in body),
    )
    .reply(201, {
      token: `ghs_${randomBytes(18).toString('hex')}`,
      expires_at: expires,
      permissions: { issues: 'write' },
      repository_selection: 'all',
    });
  if (git > 0) {
    h.scope
      .post(
        `/app/installations/${INSTALLATION_ID}/access_tokens`,
        (body: { repository_ids?: number[]; permissions?: Record<string, string> }) =>
          Array.isArray(body.repository_ids) && body.permissions?.contents === 'write',
      )
      .times(git)
      .reply(201, { token: h.token, expires_at: expires, permissions: { contents: 'write' }, repository_selection: 'selected' });
  }
}

/** `.github/fixloop.yml` as GitHub's contents API returns it (Probot's loader reads the raw file). */
export function mockConfig(h: Harness, owner: string, repo: string, yaml: string | null): void {
  const path = `/repos/${owner}/${repo}/contents/${encodeURIComponent('.github/fixloop.yml')}`;
  if (yaml === null) {
    h.scope.get(path).reply(404, { message: 'Not Found' });
    // Probot's loader falls back to the owner's `.github` repository.
    h.scope
      .get(`/repos/${owner}/.github/contents/${encodeURIComponent('.github/fixloop.yml')}`)
      .reply(404, { message: 'Not Found' });
  } else {
    h.scope.get(path).reply(200, yaml);
  }
}
