// GitHub's answers as its OpenAPI description gives them: a documented example to build a stand-in's
// answer from, and a check that an answer has every field the description requires, of its type, so
// that the code under test is never fed a shape GitHub would not send.
import { githubHasExample, operationFor, recordUse, regenerateAdvice, trimmedDescription } from './openapi-check.ts';

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
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: Schema }> }> }>
  >;
  components: { examples: Record<string, { value: unknown }> };
}

// The trimmed copy of the description (test/fixtures/github-openapi/), parsed once per worker by openapi-check.ts.
function spec(): Spec {
  return trimmedDescription() as unknown as Spec;
}

function deref<T extends { $ref?: string }>(node: T): T {
  let current: { $ref?: string } = node;
  while (current.$ref) {
    const keys = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    const target = keys.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], spec()) as
      { $ref?: string } | undefined;
    if (!target) throw new Error(`${current.$ref} ${regenerateAdvice()}`);
    current = target;
  }
  return current as T;
}

/** A copy of one of the description's examples (`components/examples/<name>`), e.g. `pull-request`. */
export function openApiExample<T = Record<string, unknown>>(name: string): T {
  recordUse('example', name);
  const example = spec().components.examples[name];
  if (!example && githubHasExample(name))
    throw new Error(`the example \`${name}\` ${regenerateAdvice(`--keep-example '${name}'`)}`);
  if (!example) throw new Error(`no example \`${name}\` in GitHub's OpenAPI description`);
  return structuredClone(example.value) as T;
}

/** What is wrong with an answer to `method path` with `status`, by the description's schema for it. */
export function checkResponseAgainstOpenApi(answer: { method: string; path: string; status: number; body: unknown }): string[] {
  const operation = operationFor(answer.method, answer.path);
  if (!operation) return [`no such operation in GitHub's REST API: ${answer.method} ${answer.path}`];
  const described = spec().paths[operation.pathTemplate]?.[answer.method.toLowerCase()];
  if (!described)
    return [`${answer.method.toUpperCase()} ${operation.pathTemplate} ${regenerateAdvice(`--keep '${operation.pathTemplate}'`)}`];
  const responses = described.responses ?? {};
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
  if (schema.enum && !schema.enum.includes(value))
    return [`${at} is ${JSON.stringify(value)}, not one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`];
  if (Array.isArray(value))
    return schema.items ? value.flatMap((item, i) => shapeProblems(schema.items as Schema, item, `${at}[${i}]`)) : [];
  if (typeof value !== 'object') return [];
  const fields = value as Record<string, unknown>;
  const missing = (schema.required ?? []).filter((key) => !(key in fields)).map((key) => `${at}.${key} is missing`);
  const inner = Object.entries(schema.properties ?? {}).flatMap(([key, property]) =>
    key in fields ? shapeProblems(property, fields[key], `${at}.${key}`) : [],
  );
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
