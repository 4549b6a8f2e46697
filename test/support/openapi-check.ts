// Checks the requests our GitHub client sends against GitHub's own OpenAPI description, so that a
// nock mock written with a typo'd path or a body GitHub would reject with 422 fails the test instead
// of passing against a mock that accepts anything.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type nock from 'nock';

export interface CheckedRequest { method: string; path: string; body: unknown }

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
interface Parameter { $ref?: string; name: string; in: string; required?: boolean; 'x-multi-segment'?: boolean }
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { $ref?: string; required?: boolean; content?: Record<string, { schema?: Schema }> };
}
type PathItem = Record<string, unknown> & { parameters?: Parameter[] };
interface Route { template: string; regex: RegExp; literals: number; multis: number; item: PathItem }

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];

// The description is 13 MB: parse it only when a test first needs it, and only once per worker.
let cached: { spec: unknown; routes: Route[] } | undefined;
function load(): { spec: unknown; routes: Route[] } {
  if (cached) return cached;
  const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
  const spec = JSON.parse(readFileSync(file, 'utf8')) as { paths: Record<string, PathItem> };
  cached = { spec, routes: [] };
  cached.routes = Object.entries(spec.paths).map(([template, item]) => toRoute(template, item));
  // Several templates can match one path (`pulls/comments` vs `pulls/{pull_number}`, or a
  // multi-segment `{branch}` swallowing `/protection`): the one with more fixed text is meant.
  cached.routes.sort((a, b) => b.literals - a.literals || a.multis - b.multis);
  return cached;
}

function toRoute(template: string, item: PathItem): Route {
  // Branch names, file paths and refs may contain slashes; GitHub marks those parameters.
  const multi = new Set(
    Object.values(item).flatMap((op) => (op as Operation).parameters ?? [])
      .map(deref).filter((p) => p['x-multi-segment']).map((p) => p.name),
  );
  let literals = 0;
  let multis = 0;
  const segments = template.split('/').map((segment) => {
    if (!segment.includes('{')) literals++;
    return segment.split(/(\{[^}]+\})/).map((part) => {
      if (!part.startsWith('{')) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      if (!multi.has(part.slice(1, -1))) return '[^/]+';
      multis++;
      return '.+';
    }).join('');
  });
  return { template, regex: new RegExp(`^${segments.join('/')}$`), literals, multis, item };
}

function deref<T extends { $ref?: string }>(node: T): T {
  let current: { $ref?: string } = node;
  while (current.$ref) {
    const keys = current.$ref.replace(/^#\//, '').split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = keys.reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], load().spec) as { $ref?: string };
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
  return [best, ...tied].find((r) => r && operationOf(r, method)) ?? best;
}

function operationOf(route: Route, method: string): Operation | undefined {
  const m = method.toLowerCase();
  return METHODS.includes(m) ? (route.item[m] as Operation | undefined) : undefined;
}

export function operationFor(method: string, path: string): { operationId: string; pathTemplate: string } | null {
  const route = routeFor(split(path).pathname, method);
  const op = route && operationOf(route, method);
  return route && op ? { operationId: op.operationId, pathTemplate: route.template } : null;
}

export function checkAgainstOpenApi(request: CheckedRequest): string[] {
  const { pathname, query } = split(request.path);
  const route = routeFor(pathname, request.method);
  if (!route) return [`no such path in GitHub's REST API: ${pathname}`];
  const op = operationOf(route, request.method);
  if (!op) {
    const allowed = METHODS.filter((m) => route.item[m]).map((m) => m.toUpperCase()).join(', ');
    return [`${request.method.toUpperCase()} is not defined for ${route.template} (only ${allowed})`];
  }
  const missingQuery = [...(route.item.parameters ?? []), ...(op.parameters ?? [])].map(deref)
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
  return { ...a, ...b, properties: { ...a.properties, ...b.properties }, required: [...(a.required ?? []), ...(b.required ?? [])] };
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
      problems.push(`field "${key}" is ${JSON.stringify(value)}, expected one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
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
export function watchScope(scope: nock.Scope, into?: { problems: string[]; requests: CheckedRequest[] }): { problems: string[]; requests: CheckedRequest[] } {
  const problems: string[] = into?.problems ?? [];
  const requests: CheckedRequest[] = into?.requests ?? [];
  // nock 15 hands over a fetch Request (absolute `url`, no `path`); older nocks gave a ClientRequest.
  scope.on('request', (req: { method?: string; url?: string; path?: string }, _interceptor: unknown, body: string) => {
    const url = req.url ? new URL(req.url, 'http://x') : undefined;
    const request = { method: (req.method ?? 'GET').toUpperCase(), path: url ? url.pathname + url.search : (req.path ?? '/'), body: parseBody(body) };
    requests.push(request);
    for (const problem of checkAgainstOpenApi(request)) problems.push(`${request.method} ${request.path}: ${problem}`);
  });
  return { problems, requests };
}
