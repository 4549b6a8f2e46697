// Checks the requests our GitHub client sends against GitHub's own OpenAPI description, so that a
// nock mock written with a typo'd path or a body GitHub would reject with 422 fails the test instead
// of passing against a mock that accepts anything.
import { appendFileSync, readFileSync } from 'node:fs';
import type nock from 'nock';

export interface CheckedRequest {
  method: string;
  path: string;
  body: unknown;
}

interface Schema {
  $ref?: string;
  type?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  enum?: unknown[];
  nullable?: boolean;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
}
interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  'x-multi-segment'?: boolean;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { $ref?: string; required?: boolean; content?: Record<string, { schema?: Schema }> };
}
type PathItem = Record<string, unknown> & { parameters?: Parameter[] };
interface Route {
  template: string;
  regex: RegExp;
  literals: number;
  multis: number;
  operations: Record<string, string>;
  item: PathItem | undefined;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];

// A trimmed copy of GitHub's description (@octokit/openapi's generated/api.github.com.json is 13 MB, the
// package 385 MB): the operations the tests use, with what they `$ref`, and an index of every path
// template and operation GitHub has. Written by scripts/trim-github-openapi.ts.
const FIXTURE = new URL('../fixtures/github-openapi/', import.meta.url);
export interface Description {
  paths: Record<string, PathItem>;
  components: Record<string, Record<string, unknown>>;
}
interface Index {
  source: string;
  routes: Array<{ template: string; operations: Record<string, string>; multiSegment: string[] }>;
  examples: string[];
}

// Parsed only when a test first needs it, and only once per worker.
let cached: { spec: Description; index: Index; routes: Route[] } | undefined;
function load(): { spec: Description; index: Index; routes: Route[] } {
  if (cached) return cached;
  const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, FIXTURE), 'utf8'));
  const spec = read('api.github.com.json') as Description;
  const index = read('index.json') as Index;
  const routes = index.routes.map((r) => toRoute(r.template, r.operations, new Set(r.multiSegment), spec.paths[r.template]));
  // Several templates can match one path (`pulls/comments` vs `pulls/{pull_number}`, or a
  // multi-segment `{branch}` swallowing `/protection`): the one with more fixed text is meant.
  routes.sort((a, b) => b.literals - a.literals || a.multis - b.multis);
  cached = { spec, index, routes };
  return cached;
}

/** The trimmed description, for test/support/openapi-response.ts. */
export function trimmedDescription(): Description {
  return load().spec;
}

/** Whether GitHub's description has an example of that name (the trimmed copy may lack it). */
export function githubHasExample(name: string): boolean {
  return load().index.examples.includes(name);
}

/** What to do when the trimmed copy lacks something GitHub's description has. */
export function regenerateAdvice(keep = ''): string {
  const { source } = load().index;
  const tarball = `${source.slice(1).replace('/', '-').replace('@', '-')}.tgz`;
  return (
    `is in GitHub's REST API (${source}) but not in the trimmed copy test/fixtures/github-openapi/: ` +
    `regenerate it with \`npm pack ${source} && npm run openapi:trim -- ${tarball}${keep ? ` ${keep}` : ''}\` and commit test/fixtures/github-openapi/`
  );
}

// Branch names, file paths and refs may contain slashes; GitHub marks those parameters (`multi`).
function toRoute(template: string, operations: Record<string, string>, multi: Set<string>, item: PathItem | undefined): Route {
  let literals = 0;
  let multis = 0;
  const segments = template.split('/').map((segment) => {
    if (!segment.includes('{')) literals++;
    return segment
      .split(/(\{[^}]+\})/)
      .map((part) => {
        if (!part.startsWith('{')) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
        if (!multi.has(part.slice(1, -1))) return '[^/]+';
        multis++;
        return '.+';
      })
      .join('');
  });
  return { template, regex: new RegExp(`^${segments.join('/')}$`), literals, multis, operations, item };
}

function deref<T extends { $ref?: string }>(node: T): T {
  let current: { $ref?: string } = node;
  while (current.$ref) {
    const keys = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    const target = keys.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], load().spec) as
      { $ref?: string } | undefined;
    if (!target) throw new Error(`${current.$ref} ${regenerateAdvice()}`);
    current = target;
  }
  return current as T;
}

function split(path: string): { pathname: string; query: URLSearchParams } {
  const [pathname = '', query = ''] = path.replace(/^\/api\/v3(?=\/)/, '').split('?', 2);
  return { pathname: pathname.replace(/\/$/, '') || '/', query: new URLSearchParams(query) };
}

// Equally specific templates can split one path's methods between them (GET `attestations/{subject_digest}`,
// DELETE `attestations/{attestation_id}`); a less specific template never gets to claim a method.
function routeFor(pathname: string, method: string): Route | undefined {
  const [best, ...rest] = load().routes.filter((r) => r.regex.test(pathname));
  const tied = rest.filter((r) => r.literals === best?.literals);
  const route = [best, ...tied].find((r) => r && definesMethod(r, method)) ?? best;
  if (route) recordUse('path', route.template);
  return route;
}

/** FIXLOOP_OPENAPI_RECORD=<file>: note every path template and example a test uses (scripts/trim-github-openapi.ts --keep-from). */
export function recordUse(kind: 'path' | 'example', name: string): void {
  const file = process.env.FIXLOOP_OPENAPI_RECORD;
  if (file) appendFileSync(file, `${kind} ${name}\n`);
}

function definesMethod(route: Route, method: string): boolean {
  const m = method.toLowerCase();
  return METHODS.includes(m) && m in route.operations;
}

export function operationFor(method: string, path: string): { operationId: string; pathTemplate: string } | null {
  const route = routeFor(split(path).pathname, method);
  const operationId = route && definesMethod(route, method) ? route.operations[method.toLowerCase()] : undefined;
  return route && operationId ? { operationId, pathTemplate: route.template } : null;
}

export function checkAgainstOpenApi(request: CheckedRequest): string[] {
  const { pathname, query } = split(request.path);
  const route = routeFor(pathname, request.method);
  if (!route) return [`no such path in GitHub's REST API: ${pathname}`];
  if (!definesMethod(route, request.method)) {
    const allowed = METHODS.filter((m) => m in route.operations)
      .map((m) => m.toUpperCase())
      .join(', ');
    return [`${request.method.toUpperCase()} is not defined for ${route.template} (only ${allowed})`];
  }
  const op = route.item?.[request.method.toLowerCase()] as Operation | undefined;
  if (!route.item || !op)
    return [`${request.method.toUpperCase()} ${route.template} ${regenerateAdvice(`--keep '${route.template}'`)}`];
  const missingQuery = [...(route.item.parameters ?? []), ...(op.parameters ?? [])]
    .map(deref)
    .filter((p) => p.in === 'query' && p.required && !query.has(p.name))
    .map((p) => `missing required query parameter "${p.name}"`);
  return [...missingQuery, ...bodyProblems(op, request.body)];
}

function bodyProblems(op: Operation, body: unknown): string[] {
  const requestBody = op.requestBody && deref(op.requestBody);
  const schema = requestBody?.content?.['application/json']?.schema;
  if (!schema || (body === undefined && !requestBody.required)) return [];
  // A body is fine when it fits any one of the alternatives; otherwise the closest miss explains best.
  const attempts = branches(schema).map((branch) => shapeProblems(branch, body ?? {}));
  return attempts.reduce((best, a) => (a.length < best.length ? a : best));
}

// Flattens oneOf/anyOf into alternatives and allOf into their combinations, keeping only what the
// top-level checks need.
function branches(node: Schema): Schema[] {
  const { oneOf, anyOf, allOf = [], ...base } = deref(node);
  const alternatives = oneOf ?? anyOf;
  const parts = [[base], ...(alternatives ? [alternatives.flatMap(branches)] : []), ...allOf.map(branches)];
  return parts.reduce<Schema[]>((acc, part) => acc.flatMap((a) => part.map((b) => merge(a, b))), [{}]);
}

function merge(a: Schema, b: Schema): Schema {
  return {
    ...a,
    ...b,
    properties: { ...a.properties, ...b.properties },
    required: [...(a.required ?? []), ...(b.required ?? [])],
  };
}

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function shapeProblems(schema: Schema, body: unknown): string[] {
  const actual = jsonType(body);
  const expected = schema.type === 'integer' ? 'number' : schema.type;
  if (expected && expected !== actual) return [`body should be ${schema.type}, got ${actual}`];
  if (actual !== 'object') return [];
  const fields = body as Record<string, unknown>;
  const problems = (schema.required ?? []).filter((k) => !(k in fields)).map((k) => `missing required field "${k}"`);
  for (const [key, value] of Object.entries(fields)) {
    const property = schema.properties?.[key];
    if (!property) {
      if (schema.additionalProperties === false) problems.push(`unknown field "${key}"`);
      continue;
    }
    const { enum: allowed, nullable } = deref(property);
    if (allowed && !allowed.includes(value) && !(value === null && nullable)) {
      problems.push(
        `field "${key}" is ${JSON.stringify(value)}, expected one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
      );
    }
  }
  return problems;
}

function parseBody(raw: string): unknown {
  const text = raw.trim();
  if (!text) return undefined;
  if (!/^[[{]/.test(text)) return raw;
  try {
    return JSON.parse(text);
  } catch {
    return raw;
  }
}

/** Several scopes may share one record (`into`), so a test sees every request in the order sent. */
export function watchScope(
  scope: nock.Scope,
  into?: { problems: string[]; requests: CheckedRequest[] },
): { problems: string[]; requests: CheckedRequest[] } {
  const problems: string[] = into?.problems ?? [];
  const requests: CheckedRequest[] = into?.requests ?? [];
  // nock 15 hands over a fetch Request (absolute `url`, no `path`); older nocks gave a ClientRequest.
  scope.on('request', (req: { method?: string; url?: string; path?: string }, _interceptor: unknown, body: string) => {
    const url = req.url ? new URL(req.url, 'http://x') : undefined;
    const request = {
      method: (req.method ?? 'GET').toUpperCase(),
      path: url ? url.pathname + url.search : (req.path ?? '/'),
      body: parseBody(body),
    };
    requests.push(request);
    for (const problem of checkAgainstOpenApi(request)) problems.push(`${request.method} ${request.path}: ${problem}`);
  });
  return { problems, requests };
}
