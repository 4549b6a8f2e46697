// A delivery's handling is quick by nature (the config, a permission, a reaction, a stored run): it
// gets a deadline, so that a GitHub that does not answer ends the delivery as failed, with its reason
// in the store and the log, instead of leaving it `running` while Octokit retries every request
// (and, for each, the installation token) for minutes. Its requests are aborted at the deadline too.
import type { ProbotOctokit } from 'probot';

export class DeliveryDeadline extends Error {}

type Octokit = InstanceType<typeof ProbotOctokit>;

/** Every request of this Octokit ends when `signal` aborts, as well as on its own deadline. */
export function abortRequestsWith(octokit: Octokit, signal: AbortSignal): void {
  octokit.hook.before('request', (options) => {
    const own = options.request?.signal;
    options.request = { ...options.request, signal: own ? AbortSignal.any([own, signal]) : signal };
  });
}

/** `work`, or a DeliveryDeadline once `signal` aborts (the work is left to fail on its aborted requests). */
export function withDeadline<T>(work: Promise<T>, signal: AbortSignal, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(
        new DeliveryDeadline(
          `GitHub's API did not answer: the delivery was not handled within ${ms / 1000} s (4 × FIXLOOP_GITHUB_TIMEOUT_SECONDS)`,
        ),
      );
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
