// A forge call that failed for a passing reason (rate limited, unavailable) is tried again after a
// pause (docs/design.md §4.4), the forge's own "come back in" honoured up to a cap; any other failure,
// or the last one, is the caller's. The adapters may retry on their own too (Octokit does): this is
// the publication's retry, the one that holds for any forge.
import { isTransient } from '../core/forge-error.ts';

/** Pauses before the second and third tries. */
export const PUBLISH_RETRY_DELAYS_MS: readonly number[] = [2_000, 10_000];
/** A rate limit that resets later than this is not waited for: the patch is kept instead. */
const MAX_WAIT_MS = 60_000;

export async function withForgeRetry<T>(
  call: () => Promise<T>,
  delaysMs: readonly number[] = PUBLISH_RETRY_DELAYS_MS,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const delay = delaysMs[attempt];
      if (!isTransient(error) || delay === undefined) throw error;
      const wait = Math.max(delay, error.retryAfterMs ?? 0);
      if (wait > MAX_WAIT_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
