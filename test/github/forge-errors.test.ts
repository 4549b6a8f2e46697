// GitHub's failures become the forge port's typed errors: the HTTP status and the rate-limit headers
// decide the code, GitHub's message is kept; the Octokit forge throws nothing else.
import { RequestError } from '@octokit/request-error';
import { describe, expect, it } from 'vitest';
import { ForgeError } from '../../src/core/forge-error.ts';
import { toForgeError } from '../../src/github/forge-errors.ts';
import { createOctokitForge } from '../../src/github/octokit-forge.ts';

const request = { method: 'POST' as const, url: 'https://api.github.com/repos/o/r/pulls', headers: {} };
const failure = (status: number, headers: Record<string, string> = {}, message = 'Failed') =>
  new RequestError(message, status, { request, response: { status, url: request.url, headers, data: { message } } });

describe('GitHub failures as ForgeErrors', () => {
  it.each([
    [404, {}, 'not_found'],
    [403, {}, 'forbidden'],
    [401, {}, 'forbidden'],
    [403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1000' }, 'rate_limited'],
    [403, { 'retry-after': '30' }, 'rate_limited'],
    [429, {}, 'rate_limited'],
    [409, {}, 'conflict'],
    [422, {}, 'conflict'],
    [500, {}, 'unavailable'],
    [502, {}, 'unavailable'],
    [503, {}, 'unavailable'],
    [400, {}, 'unknown'],
  ] as const)('%i %j is %s', (status, headers, code) => {
    const mapped = toForgeError(failure(status, headers), 990_000);
    expect(mapped).toBeInstanceOf(ForgeError);
    expect(mapped.code).toBe(code);
    expect(mapped.message).toBe('Failed');
  });

  it('says when a rate limit lets fixloop try again', () => {
    expect(toForgeError(failure(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1000' }), 990_000).retryAfterMs).toBe(
      10_000,
    );
    expect(toForgeError(failure(403, { 'retry-after': '30' })).retryAfterMs).toBe(30_000);
    expect(toForgeError(failure(403, {}, 'You have exceeded a secondary rate limit')).code).toBe('rate_limited');
  });

  it('a request that got no answer is unavailable; anything else unknown', () => {
    // Octokit reports a failed fetch as a 500; Node's own errors carry a code.
    expect(toForgeError(new RequestError('fetch failed', 500, { request })).code).toBe('unavailable');
    expect(toForgeError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })).code).toBe(
      'unavailable',
    );
    expect(toForgeError(new DOMException('This operation was aborted', 'AbortError')).code).toBe('unavailable');
    expect(toForgeError(new TypeError('x is not a function')).code).toBe('unknown');
  });

  it('the Octokit forge throws ForgeErrors, GitHub’s message kept', async () => {
    const octokit = {
      rest: {
        pulls: { create: () => Promise.reject(failure(422, {}, 'A pull request already exists for acme:fixloop/3-abc.')) },
      },
    };
    const forge = createOctokitForge({
      octokit: octokit as never,
      owner: 'acme',
      repo: 'shop',
      installationToken: () => Promise.reject(failure(403, { 'x-ratelimit-remaining': '0' })),
    });
    await expect(
      forge.openPullRequest({ title: 't', head: 'fixloop/3-abc', base: 'main', body: '', draft: false }),
    ).rejects.toMatchObject({
      name: 'ForgeError',
      code: 'conflict',
      message: 'A pull request already exists for acme:fixloop/3-abc.',
    });
    await expect(forge.cloneAuth()).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
