// GitHub's failures as the forge port's typed errors (src/core/forge-error.ts): the HTTP status of an
// Octokit RequestError, and its rate-limit headers, decide the code. The message stays GitHub's own,
// the one people already see; the original error is kept as the cause for the log.
import { ForgeError, type ForgeErrorCode } from '../core/forge-error.ts';

/** What an Octokit RequestError carries; read by shape so that any Octokit version maps the same. */
interface HttpFailure {
  status?: unknown;
  code?: unknown;
  message?: unknown;
  response?: { headers?: Record<string, string | number | undefined> } | null;
}

export function toForgeError(error: unknown, now = Date.now()): ForgeError {
  if (error instanceof ForgeError) return error;
  const failure = (typeof error === 'object' && error !== null ? error : {}) as HttpFailure;
  const message = typeof failure.message === 'string' ? failure.message : String(error);
  const status = typeof failure.status === 'number' ? failure.status : null;
  const headers = failure.response?.headers ?? {};
  const code = status === null ? codeWithoutAnswer(failure, error) : codeOf(status, headers, message);
  return new ForgeError(code, message, {
    retryAfterMs: code === 'rate_limited' ? retryAfterMs(headers, now) : null,
    cause: error,
  });
}

/** Node's names for a request that never got an answer. Octokit itself reports these as a 500. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** No status: a request that never got an answer (DNS, a refused connection, an aborted request), or a bug. */
function codeWithoutAnswer(failure: HttpFailure, error: unknown): ForgeErrorCode {
  if (NETWORK_CODES.has(String(failure.code))) return 'unavailable';
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError') ? 'unavailable' : 'unknown';
}

function codeOf(status: number, headers: Record<string, string | number | undefined>, message: string): ForgeErrorCode {
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  // GitHub answers 403 both to a missing permission and to a rate limit; the headers tell which.
  if (status === 403)
    return String(headers['x-ratelimit-remaining']) === '0' || headers['retry-after'] !== undefined || /rate limit/i.test(message)
      ? 'rate_limited'
      : 'forbidden';
  if (status === 401) return 'forbidden';
  if (status === 409 || status === 422) return 'conflict';
  if (status >= 500) return 'unavailable';
  return 'unknown';
}

function retryAfterMs(headers: Record<string, string | number | undefined>, now: number): number | null {
  const after = Number(headers['retry-after']);
  if (Number.isFinite(after) && after >= 0) return after * 1000;
  const reset = Number(headers['x-ratelimit-reset']);
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - now) : null;
}

/** Every method of `target` with its failures mapped: the adapter's forge throws ForgeErrors only. */
export function mappingErrors<T extends object>(target: T): T {
  const entries = Object.entries(target).map(([name, value]) => {
    if (typeof value !== 'function') return [name, value];
    const method = value as (...args: unknown[]) => Promise<unknown>;
    return [
      name,
      async (...args: unknown[]) => method(...args).catch((failure: unknown) => Promise.reject(toForgeError(failure))),
    ];
  });
  return Object.fromEntries(entries) as T;
}
