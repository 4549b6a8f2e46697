// GitHub's answers as its OpenAPI description gives them: a documented example to build a stand-in's
// answer from, and a check that an answer has every field the description requires, of its type, so
// that the code under test is never fed a shape GitHub would not send.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { operationFor } from './openapi-check.ts';

interface Schema {
  $ref?: string;
  type?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  nullable?: boolean;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
}
interface Spec {
  paths: Record<string, Record<string, { responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: Schema }> }> }>>;
  components: { examples: Record<string, { value: unknown }> };
}

// The description is 13 MB: parsed once per worker, when a test first asks.
let cached: Spec | undefined;
function spec(): Spec {
  cached ??= JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8')) as Spec;
  return cached;
}

function deref<T extends { $ref?: string }>(node: T): T {
  let current: { $ref?: string } = node;
  while (current.$ref) {
    const keys = current.$ref.replace(/^#\//, '').split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = keys.reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], spec()) as { $ref?: string };
  }
  return current as T;
}

/** A copy of one of the description's examples (`components/examples/<name>`), e.g. `pull-request`. */
export function openApiExample<T = Record<string, unknown>>(name: string): T {
  const example = spec().components.examples[name];
  if (!example) throw new Error(`no example \`${name}\` in GitHub's OpenAPI description`);
  return structuredClone(example.value) as T;
}

/** What is wrong with an answer to `method path` with `status`, by the description's schema for it. */
export function checkResponseAgainstOpenApi(answer: { method: string; path: string; status: number; body: unknown }): string[] {
  const operation = operationFor(answer.method, answer.path);
  if (!operation) return [`no such operation in GitHub's REST API: ${answer.method} ${answer.path}`];
  const responses = spec().paths[operation.pathTemplate]?.[answer.method.toLowerCase()]?.responses ?? {};
  const response = responses[String(answer.status)];
  if (!response) return [`${operation.operationId} never answers ${answer.status} (only ${Object.keys(responses).join(', ')})`];
  const schema = deref(response).content?.['application/json']?.schema;
  return schema ? shapeProblems(schema, answer.body, '$') : [];
}

function shapeProblems(node: Schema, value: unknown, at: string): string[] {
  const schema = deref(node);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) {
    // Fits when it fits one of them; otherwise the closest miss explains best.
    const attempts = alternatives.map((alternative) => shapeProblems(alternative, value, at));
    return attempts.reduce((best, a) => (a.length < best.length ? a : best));
  }
  if (schema.allOf) return schema.allOf.flatMap((part) => shapeProblems(part, value, at));
  if (value === null) return schema.nullable || schema.type === undefined ? [] : [`${at} is null, but not nullable`];
  const typeProblem = wrongType(schema.type, value);
  if (typeProblem) return [`${at} should be ${schema.type}, got ${typeProblem}`];
  if (schema.enum && !schema.enum.includes(value)) return [`${at} is ${JSON.stringify(value)}, not one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`];
  if (Array.isArray(value)) return schema.items ? value.flatMap((item, i) => shapeProblems(schema.items as Schema, item, `${at}[${i}]`)) : [];
  if (typeof value !== 'object') return [];
  const fields = value as Record<string, unknown>;
  const missing = (schema.required ?? []).filter((key) => !(key in fields)).map((key) => `${at}.${key} is missing`);
  const inner = Object.entries(schema.properties ?? {}).flatMap(([key, property]) => (key in fields ? shapeProblems(property, fields[key], `${at}.${key}`) : []));
  return [...missing, ...inner];
}

/** The value's actual type when it is not the schema's, else null. */
function wrongType(type: string | undefined, value: unknown): string | null {
  const actual = Array.isArray(value) ? 'array' : typeof value;
  if (type === undefined) return null;
  if (type === 'integer') return Number.isInteger(value) ? null : actual;
  if (type === 'object') return actual === 'object' ? null : actual;
  return actual === type ? null : actual;
}
