// The checker is only worth having if it accepts what fixloop really sends and rejects the
// mistakes a hand-written mock would let through.
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { checkAgainstOpenApi, operationFor, watchScope } from '../support/openapi-check.ts';

const check = (method: string, path: string, body?: unknown) => checkAgainstOpenApi({ method, path, body });

describe('checkAgainstOpenApi', () => {
  it.each([
    ['POST', '/repos/o/r/issues/1/comments', { body: 'hi' }],
    ['PATCH', '/repos/o/r/issues/comments/5', { body: 'edited' }],
    ['POST', '/repos/o/r/issues/comments/5/reactions', { content: 'eyes' }],
    ['POST', '/repos/o/r/pulls', { title: 't', head: 'fixloop/1', base: 'main', body: 'b', draft: true }],
    ['POST', '/repos/o/r/check-runs', { name: 'fixloop', head_sha: 'abc', status: 'in_progress' }],
    ['PATCH', '/repos/o/r/check-runs/9', { status: 'completed', conclusion: 'success', output: { title: 't', summary: 's' } }],
    ['GET', '/repos/o/r/collaborators/u/permission', undefined],
    ['POST', '/app/installations/1/access_tokens', undefined],
    ['POST', '/repos/o/r/issues/3/labels', { labels: ['x'] }],
    ['GET', '/repos/o/r/contents/.github%2Ffixloop.yml', undefined],
    ['GET', '/repos/o/r/contents/.github/fixloop.yml?ref=main', undefined],
    ['GET', '/repos/o/r/issues/1/comments?per_page=100', undefined],
    ['POST', '/api/v3/repos/o/r/issues/1/comments', { body: 'on GHE' }],
  ])('accepts %s %s', (method, path, body) => {
    expect(check(method, path, body)).toEqual([]);
  });

  it('rejects a path GitHub does not have', () => {
    expect(check('GET', '/repos/o/r/issue/1')).toEqual(["no such path in GitHub's REST API: /repos/o/r/issue/1"]);
  });

  it('rejects a method the path does not define', () => {
    expect(check('PUT', '/repos/o/r/issues/1/comments', { body: 'x' })).toEqual([
      'PUT is not defined for /repos/{owner}/{repo}/issues/{issue_number}/comments (only GET, POST)',
    ]);
  });

  it('rejects a body without a required field', () => {
    expect(check('POST', '/repos/o/r/pulls', { title: 't', base: 'main' })).toEqual(['missing required field "head"']);
    expect(check('POST', '/repos/o/r/pulls')).toEqual(['missing required field "head"', 'missing required field "base"']);
  });

  it('rejects values outside an enum', () => {
    expect(check('POST', '/repos/o/r/issues/comments/5/reactions', { content: 'eye' })).toEqual([
      'field "content" is "eye", expected one of "+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"',
    ]);
    expect(check('PATCH', '/repos/o/r/check-runs/9', { conclusion: 'green' })[0]).toMatch(
      /^field "conclusion" is "green", expected one of /,
    );
  });

  it('needs only one oneOf branch to be satisfied, and names the closest miss otherwise', () => {
    expect(check('POST', '/orgs/o/attestations/delete-request', { attestation_ids: [1] })).toEqual([]);
    expect(check('POST', '/orgs/o/attestations/delete-request', { subject_digests: ['sha256:1'] })).toEqual([]);
    expect(check('POST', '/orgs/o/attestations/delete-request', {})).toEqual(['missing required field "subject_digests"']);
  });

  it('rejects unknown fields only where the schema forbids them', () => {
    expect(check('POST', '/repos/o/r/hooks', { config: { url: 'https://x' }, colour: 'red' })).toEqual([
      'unknown field "colour"',
    ]);
    expect(check('POST', '/repos/o/r/issues/1/comments', { body: 'x', colour: 'red' })).toEqual([]);
  });

  it('rejects a body of the wrong shape', () => {
    expect(check('POST', '/repos/o/r/issues/1/comments', 'hi')).toEqual(['body should be object, got string']);
  });

  it('rejects a missing required query parameter', () => {
    expect(check('GET', '/search/issues')).toEqual(['missing required query parameter "q"']);
    expect(check('GET', '/search/issues?q=is%3Aopen')).toEqual([]);
  });
});

describe('operationFor', () => {
  it('prefers fixed segments over parameters', () => {
    expect(operationFor('GET', '/repos/o/r/pulls/comments')).toEqual({
      operationId: 'pulls/list-review-comments-for-repo',
      pathTemplate: '/repos/{owner}/{repo}/pulls/comments',
    });
    expect(operationFor('GET', '/repos/o/r/pulls/7')).toEqual({
      operationId: 'pulls/get',
      pathTemplate: '/repos/{owner}/{repo}/pulls/{pull_number}',
    });
    expect(operationFor('GET', '/repos/o/r/branches/feat/x/protection')?.pathTemplate).toBe(
      '/repos/{owner}/{repo}/branches/{branch}/protection',
    );
  });

  it('picks, among equally specific templates, the one that defines the method', () => {
    expect(operationFor('GET', '/orgs/o/attestations/sha256:1')?.pathTemplate).toBe('/orgs/{org}/attestations/{subject_digest}');
    expect(operationFor('DELETE', '/orgs/o/attestations/1')?.pathTemplate).toBe('/orgs/{org}/attestations/{attestation_id}');
  });

  it('lets multi-segment parameters span slashes', () => {
    expect(operationFor('get', '/api/v3/repos/o/r/contents/.github/fixloop.yml')).toEqual({
      operationId: 'repos/get-content',
      pathTemplate: '/repos/{owner}/{repo}/contents/{path}',
    });
  });

  it('returns null for unknown paths and undefined methods', () => {
    expect(operationFor('GET', '/nope')).toBeNull();
    expect(operationFor('DELETE', '/repos/o/r/pulls')).toBeNull();
  });
});

describe('watchScope', () => {
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  it("sees what fetch sends through nock's request event", async () => {
    nock.disableNetConnect();
    const scope = nock('https://api.github.com')
      .post('/repos/o/r/issues/comments/5/reactions')
      .reply(201, {})
      .post('/repos/o/r/issues/comments/5/reactions')
      .reply(201, {})
      .get('/repos/o/r/issues/1/comments')
      .query(true)
      .reply(200, []);
    const watched = watchScope(scope);

    const post = (content: string) =>
      fetch('https://api.github.com/repos/o/r/issues/comments/5/reactions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content }),
      });
    expect((await post('eyes')).status).toBe(201);
    expect((await post('eye')).status).toBe(201);
    expect((await fetch('https://api.github.com/repos/o/r/issues/1/comments?per_page=100')).status).toBe(200);

    expect(scope.isDone()).toBe(true);
    expect(watched.requests).toEqual([
      { method: 'POST', path: '/repos/o/r/issues/comments/5/reactions', body: { content: 'eyes' } },
      { method: 'POST', path: '/repos/o/r/issues/comments/5/reactions', body: { content: 'eye' } },
      { method: 'GET', path: '/repos/o/r/issues/1/comments?per_page=100', body: undefined },
    ]);
    expect(watched.problems).toEqual([
      'POST /repos/o/r/issues/comments/5/reactions: field "content" is "eye", expected one of "+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"',
    ]);
  });
});
