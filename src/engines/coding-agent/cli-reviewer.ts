// The reviewer as a coding agent (FIXLOOP_REVIEW_AGENT=codex|claude|aider), in its read-only mode and
// with its review model (e.g. CODEX_MODEL_VER): the same template and strict protocol as a model.
import type { CliAgentName } from '../../core/repo-config.ts';
import { parseReview } from '../parse-review.ts';
import type { Reviewer, ReviewInput, ReviewOutcome } from '../../core/reviewer.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import type { Workspace } from '../../workspace/workspace.ts';
import { EngineError } from '../engine-error.ts';
import { ZERO_COST } from '../../core/cost.ts';
import { reviewPrompt } from '../prompt/review-prompt.ts';
import type { Template, TemplateName } from '../prompt/templates.ts';
import { askCliAgent } from './cli-engine.ts';

export interface CliReviewerOptions {
  agent: CliAgentName;
  environment: Record<string, string | undefined>;
  sandbox: Sandbox;
  workspace: () => Workspace;
  templates: (name: TemplateName, workspace: Workspace) => Promise<Template>;
  timeoutMs: number;
}

export function createCliReviewer(options: CliReviewerOptions): Reviewer {
  return {
    name: options.agent,
    async review(input: ReviewInput): Promise<ReviewOutcome> {
      const workspace = options.workspace();
      const prompt = await reviewPrompt(input, workspace, options.templates);
      let answer: string;
      try {
        answer = await askCliAgent({
          agent: options.agent,
          prompt,
          environment: options.environment,
          sandbox: options.sandbox,
          cwd: workspace.root,
          timeoutMs: Math.max(1000, Math.min(options.timeoutMs, input.deadline - Date.now())),
          signal: input.signal,
          log: input.log,
        });
      } catch (error) {
        if (error instanceof EngineError && error.code === 'ENGINE_FAILED')
          return { status: 'invalid', remainingTasks: [], reason: error.message, cost: ZERO_COST };
        throw error;
      }
      const parsed = parseReview(answer.trim());
      return parsed.status === 'invalid'
        ? { status: 'invalid', remainingTasks: [], reason: `malformed review answer: ${parsed.reason}`, cost: ZERO_COST }
        : { ...parsed, cost: ZERO_COST };
    },
  };
}
