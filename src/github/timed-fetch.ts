// Every request to GitHub's API gets a deadline: a GitHub that accepts the connection and never
// answers would otherwise hold a delivery `running` for as long as the socket lives, with nothing
// logged. The error names the host and the limit; Octokit's retries then apply as to any 5xx.
export function timedFetch(timeoutMs: number, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      return await base(input, { ...init, signal });
    } catch (error) {
      if (!deadline.aborted) throw error;
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      throw new Error(`${new URL(url).host} did not answer within ${timeoutMs / 1000} s (FIXLOOP_GITHUB_TIMEOUT_SECONDS)`, {
        cause: error,
      });
    }
  };
}

/** FIXLOOP_GITHUB_TIMEOUT_SECONDS (default 15) in ms; null when it is not a number of seconds above 0. */
export function githubTimeoutMs(env: NodeJS.ProcessEnv): number | null {
  const seconds = Number(env.FIXLOOP_GITHUB_TIMEOUT_SECONDS || '15');
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
}
