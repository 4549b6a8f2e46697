// The one place every request's text crosses before an engine sees it: whatever asked (an issue, a
// comment, a review through the forge's run job; `fixloop run --goal`; the library), runLocal cleans
// the goal and the instructions here. What the issue page does not show is removed, the length is
// capped, and the counts (never the text) go to the RunResult; the prompts fence what remains
// (src/engines/prompt/task-values.ts). Cleaning the operator's own `--goal` is harmless.
import type { FixRequest } from '../core/fix-request.ts';
import { cleanRequestText, removedCount, type RemovedFromRequest } from '../core/request-text.ts';

export interface CleanedRequest {
  request: FixRequest;
  /** What was removed from the goal and the instructions together; null when nothing was. */
  removed: RemovedFromRequest | null;
}

export function cleanRequest(request: FixRequest): CleanedRequest {
  const goal = cleanRequestText(request.goal);
  const instructions = request.instructions !== undefined ? cleanRequestText(request.instructions) : null;
  const removed = instructions ? sum(goal.removed, instructions.removed) : goal.removed;
  return {
    request: { ...request, goal: goal.text, ...(instructions ? { instructions: instructions.text } : {}) },
    removed: removedCount(removed) > 0 ? removed : null,
  };
}

function sum(a: RemovedFromRequest, b: RemovedFromRequest): RemovedFromRequest {
  return {
    htmlComments: a.htmlComments + b.htmlComments,
    hiddenElements: a.hiddenElements + b.hiddenElements,
    attributes: a.attributes + b.attributes,
    invisibleCharacters: a.invisibleCharacters + b.invisibleCharacters,
    unusedReferences: a.unusedReferences + b.unusedReferences,
    truncatedCharacters: a.truncatedCharacters + b.truncatedCharacters,
  };
}
