// What the person who asked reads when the forge refused or failed a step (docs/design.md §4.3, §4.4),
// decided on the ForgeError's code: a passing failure says the patch is kept and can be published
// again; a refusal says what access is missing; anything else keeps the message as it came.
import { ForgeError } from '../core/forge-error.ts';

/** The cause of a failed step, in a sentence that starts lower-case (it follows a colon). */
export function forgeFailureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ForgeError)) return message;
  switch (error.code) {
    case 'rate_limited':
      return `the forge's rate limit was reached, also after retries (${message})`;
    case 'unavailable':
      return `the forge did not answer, also after retries (${message})`;
    case 'forbidden':
      return `the forge refused: fixloop's access to this repository does not allow it (${message}). Check that fixloop may write the repository's contents, issues and pull requests, and what protects the branch`;
    case 'not_found':
      return `the forge does not find it, or fixloop may not see it (${message})`;
    case 'conflict':
      return `the forge refused it as it clashes with what is there, e.g. a pull request or branch that already exists (${message})`;
    case 'unknown':
      return message;
  }
}

/** The status comment of a verified run whose publication failed: the patch is never lost. */
export function unpublishedMessage(runId: string, error: unknown, retryHint: string): string {
  const again =
    error instanceof ForgeError && (error.code === 'rate_limited' || error.code === 'unavailable')
      ? ` An operator can publish it again with \`fixloop publish ${runId}\` once the forge answers.`
      : '';
  return `⚠️ **fixloop** run \`${runId}\` verified a fix but could not publish it: ${forgeFailureText(error)}\n\nThe verified patch is kept with the run's artifacts.${again} ${retryHint}`;
}
