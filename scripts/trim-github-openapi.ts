// Writes the trimmed copy of GitHub's OpenAPI description that the tests check requests and answers
// against (test/support/openapi-check.ts, test/support/openapi-response.ts), so that `npm ci` need not
// bring the whole @octokit/openapi package (385 MB) for the 13 MB the tests read:
//
//   npm pack @octokit/openapi@23.0.2            # → octokit-openapi-23.0.2.tgz
//   npm run openapi:trim -- octokit-openapi-23.0.2.tgz [--keep <path template | operationId>]...
//        [--keep-example <name>]... [--keep-from <file written by FIXLOOP_OPENAPI_RECORD=<file> npx vitest run>]
//
// The source is that tarball or its `generated/api.github.com.json`. What was kept before (index.json's
// `kept`) stays kept; --keep adds to it. Written, with sorted keys (the same input gives the same bytes):
//   api.github.com.json: the kept path templates with all their operations, plus every component they
//                        `$ref`, transitively, plus the kept examples;
//   index.json:          every path template of GitHub's REST API with its operations' ids and its
//                        multi-segment parameters, and every example's name, so that a request to a real
//                        path the copy lacks is told apart from a request to a path GitHub does not have.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const PINNED = '23.0.2';
const OUT = new URL('../test/fixtures/github-openapi/', import.meta.url);
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };
interface Index {
  source: string;
  kept: { paths: string[]; examples: string[] };
  /** In the description's order, which breaks ties between equally specific templates. */
  routes: Array<{ template: string; operations: Record<string, string>; multiSegment: string[] }>;
  examples: string[];
}

function readSource(file: string): Obj {
  if (!/\.(tgz|tar\.gz)$/.test(file)) return JSON.parse(readFileSync(file, 'utf8')) as Obj;
  const inTar = (name: string) =>
    execFileSync('tar', ['-xzOf', file, `package/${name}`], { maxBuffer: 1 << 30, encoding: 'utf8' });
  const { name, version } = JSON.parse(inTar('package.json')) as { name: string; version: string };
  if (name !== '@octokit/openapi' || version !== PINNED)
    throw new Error(`${file} is ${name}@${version}, not @octokit/openapi@${PINNED}`);
  return JSON.parse(inTar('generated/api.github.com.json')) as Obj;
}

function refTarget(spec: Obj, ref: string): Json {
  const keys = ref
    .replace(/^#\//, '')
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  return keys.reduce<Json>((at, key) => (at as Obj)[key] as Json, spec);
}

function refsIn(node: Json, into: string[]): void {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, into));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.push(value);
      else refsIn(value, into);
    }
  }
}

function sortKeys(node: Json): Json {
  if (Array.isArray(node)) return node.map(sortKeys);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.keys(node)
      .sort()
      .map((k) => [k, sortKeys(node[k] as Json)]),
  );
}

function indexOf(spec: Obj, kept: Index['kept']): Index {
  const paths = spec.paths as Record<string, Obj>;
  const routes = Object.entries(paths).map(([template, item]) => {
    const operations = Object.fromEntries(METHODS.filter((m) => item[m]).map((m) => [m, String((item[m] as Obj).operationId)]));
    const params = [
      ...((item.parameters as Json[] | undefined) ?? []),
      ...METHODS.flatMap((m) => ((item[m] as Obj | undefined)?.parameters as Json[] | undefined) ?? []),
    ];
    const multiSegment = [
      ...new Set(
        params
          .map((p) => ((p as Obj).$ref ? refTarget(spec, String((p as Obj).$ref)) : p) as Obj)
          .filter((p) => p['x-multi-segment'])
          .map((p) => String(p.name)),
      ),
    ].sort();
    return { template, operations, multiSegment };
  });
  const examples = Object.keys(((spec.components as Obj).examples as Obj | undefined) ?? {}).sort();
  return { source: `@octokit/openapi@${PINNED}`, kept, routes, examples };
}

/** Path templates and operationIds (`issues/create-comment`) to the templates they name. */
function templatesFor(spec: Obj, wanted: string[]): string[] {
  const paths = spec.paths as Record<string, Obj>;
  return wanted.map((want) => {
    if (want.startsWith('/')) {
      if (!paths[want]) throw new Error(`no path template ${want} in GitHub's description`);
      return want;
    }
    const template = Object.keys(paths).find((t) =>
      METHODS.some((m) => (paths[t]?.[m] as Obj | undefined)?.operationId === want),
    );
    if (!template) throw new Error(`no operation ${want} in GitHub's description`);
    return template;
  });
}

function trim(spec: Obj, kept: Index['kept']): Obj {
  const paths = spec.paths as Record<string, Obj>;
  const keptPaths = Object.fromEntries(kept.paths.map((t) => [t, paths[t] as Json]));
  const examples = (spec.components as Obj).examples as Obj;
  for (const name of kept.examples) if (!examples[name]) throw new Error(`no example ${name} in GitHub's description`);
  const roots: string[] = kept.examples.map((name) => `#/components/examples/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  refsIn(keptPaths, roots);
  const seen = new Set<string>();
  const components: Obj = {};
  for (let ref = roots.pop(); ref !== undefined; ref = roots.pop()) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);
    if (!match) throw new Error(`unexpected $ref ${ref}`);
    const [, section = '', key = ''] = match;
    const target = refTarget(spec, ref);
    if (target === undefined) throw new Error(`dangling $ref ${ref}`);
    ((components[section] ??= {}) as Obj)[key.replace(/~1/g, '/').replace(/~0/g, '~')] = target;
    refsIn(target, roots);
  }
  const { openapi, info, servers } = spec;
  return { openapi: openapi ?? null, info: info ?? null, servers: servers ?? null, paths: keptPaths, components } as Obj;
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      keep: { type: 'string', multiple: true },
      'keep-example': { type: 'string', multiple: true },
      'keep-from': { type: 'string', multiple: true },
    },
  });
  const [source] = positionals;
  if (!source || positionals.length > 1) {
    throw new Error(
      'usage: npm run openapi:trim -- <octokit-openapi-23.0.2.tgz | api.github.com.json> [--keep <path template | operationId>]... [--keep-example <name>]... [--keep-from <record file>]',
    );
  }
  const spec = readSource(source);
  const indexFile = new URL('index.json', OUT);
  const before = existsSync(indexFile)
    ? (JSON.parse(readFileSync(indexFile, 'utf8')) as Index).kept
    : { paths: [], examples: [] };
  const recorded = (values['keep-from'] ?? []).flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean));
  const wantedPaths = [
    ...before.paths,
    ...(values.keep ?? []),
    ...recorded.filter((l) => l.startsWith('path ')).map((l) => l.slice(5)),
  ];
  const wantedExamples = [
    ...before.examples,
    ...(values['keep-example'] ?? []),
    ...recorded.filter((l) => l.startsWith('example ')).map((l) => l.slice(8)),
  ];
  const kept = { paths: [...new Set(templatesFor(spec, wantedPaths))].sort(), examples: [...new Set(wantedExamples)].sort() };
  const trimmed = JSON.stringify(sortKeys(trim(spec, kept)), null, 1);
  writeFileSync(new URL('api.github.com.json', OUT), `${trimmed}\n`);
  writeFileSync(indexFile, `${JSON.stringify(sortKeys(indexOf(spec, kept) as unknown as Json), null, 1)}\n`);
  console.log(`kept ${kept.paths.length} path templates and ${kept.examples.length} named examples: ${trimmed.length} bytes`);
}

main();
