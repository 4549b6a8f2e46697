// The OpenAPI checks read a trimmed copy of GitHub's description (test/fixtures/github-openapi/, written by
// scripts/trim-github-openapi.ts): trimming must not make them more lenient, and what the copy lacks
// must say how to get it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkAgainstOpenApi, operationFor } from './openapi-check.ts';
import { checkResponseAgainstOpenApi, openApiExample } from './openapi-response.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/github-openapi/${name}`, import.meta.url), 'utf8'));
const REGENERATE =
  /is in GitHub's REST API \(@octokit\/openapi@23\.0\.2\) but not in the trimmed copy test\/fixtures\/github-openapi\/: regenerate it with `npm pack @octokit\/openapi@23\.0\.2 && npm run openapi:trim -- octokit-openapi-23\.0\.2\.tgz --keep/;

describe('the trimmed copy of GitHub’s OpenAPI description', () => {
  it('fails a request to a real GitHub path it lacks, saying how to regenerate it', () => {
    const problems = checkAgainstOpenApi({ method: 'POST', path: '/repos/o/r/releases', body: { tag_name: 'v1' } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^POST \/repos\/\{owner\}\/\{repo\}\/releases /);
    expect(problems[0]).toMatch(REGENERATE);
    expect(problems[0]).toContain("--keep '/repos/{owner}/{repo}/releases'");
  });

  it('still knows every path and method GitHub has, so a wrong one is still wrong', () => {
    expect(checkAgainstOpenApi({ method: 'GET', path: '/repos/o/r/release', body: undefined })).toEqual([
      "no such path in GitHub's REST API: /repos/o/r/release",
    ]);
    expect(checkAgainstOpenApi({ method: 'PUT', path: '/repos/o/r/releases', body: undefined })).toEqual([
      'PUT is not defined for /repos/{owner}/{repo}/releases (only GET, POST)',
    ]);
    expect(operationFor('POST', '/repos/o/r/releases')).toEqual({
      operationId: 'repos/create-release',
      pathTemplate: '/repos/{owner}/{repo}/releases',
    });
  });

  it('fails an answer check and an example it lacks the same way', () => {
    expect(checkResponseAgainstOpenApi({ method: 'GET', path: '/repos/o/r/releases', status: 200, body: [] })[0]).toMatch(
      REGENERATE,
    );
    expect(() => openApiExample('release')).toThrow(REGENERATE);
    expect(() => openApiExample('no-such-example')).toThrow("no example `no-such-example` in GitHub's OpenAPI description");
  });

  it('holds everything its kept operations $ref, and each kept path whole', () => {
    const spec = fixture('api.github.com.json') as {
      paths: Record<string, unknown>;
      components: Record<string, Record<string, unknown>>;
    };
    const index = fixture('index.json') as {
      kept: { paths: string[]; examples: string[] };
      routes: Array<{ template: string; operations: Record<string, string> }>;
    };
    const refs = [...JSON.stringify(spec).matchAll(/"\$ref":"#\/components\/([^/"]+)\/([^"]+)"/g)];
    const dangling = refs.filter(
      ([, section = '', key = '']) => !(key.replace(/~1/g, '/').replace(/~0/g, '~') in (spec.components[section] ?? {})),
    );
    expect(dangling.map(([ref]) => ref)).toEqual([]);
    expect(Object.keys(spec.paths).sort()).toEqual(index.kept.paths);
    for (const { template, operations } of index.routes.filter((r) => r.template in spec.paths)) {
      expect(
        Object.keys(operations).every((m) => m in (spec.paths[template] as object)),
        template,
      ).toBe(true);
    }
    expect(Object.keys(spec.components.examples ?? {})).toEqual(expect.arrayContaining(index.kept.examples));
  });
});
