// The reviewer as a second model (FIXLOOP_REVIEW_MODEL): one call, no tools, the strict protocol.
// It spends from the same run budget as the agent.
import type { Workspace } from '../../workspace/workspace.ts';
import { parseReview } from '../parse-review.ts';
import type { Reviewer, ReviewInput, ReviewOutcome } from '../../core/reviewer.ts';
import { reviewPrompt } from '../prompt/review-prompt.ts';
import type { Template, TemplateName } from '../prompt/templates.ts';
import type { ChatModel } from './chat-model.ts';
import { modelCallError } from './model-errors.ts';
import { costOf, type Price } from './prices.ts';
import type { RunBudget } from './run-budget.ts';

export interface ModelReviewerOptions {
  model: ChatModel;
  price: Price | null;
  baseURL?: string;
  budget: RunBudget;
  templates: (name: TemplateName, workspace: Workspace) => Promise<Template>;
  workspace: () => Workspace;
}

const SYSTEM = 'You are a strict code reviewer. You answer in exactly the two-line format you are given.';

export function createModelReviewer(options: ModelReviewerOptions): Reviewer {
  const { model, budget } = options;
  return {
    name: `${model.provider} ${model.model}`,
    async review(input: ReviewInput): Promise<ReviewOutcome> {
      const zero = { usd: 0, tokens: 0 };
      const stop = await budget.beforeModelCall();
      if (stop)
        return {
          status: 'invalid',
          remainingTasks: [],
          reason: `the review could not run: ${stop.message}`,
          cost: zero,
          budgetStop: stop,
        };
      const prompt = await reviewPrompt(input, options.workspace(), options.templates);
      budget.begin();
      try {
        const timeout = AbortSignal.timeout(Math.max(1, Math.min(budget.remainingMs(), input.deadline - Date.now())));
        let answer;
        try {
          answer = await model.reply({
            system: SYSTEM,
            messages: [{ role: 'user', text: prompt }],
            tools: [],
            maxOutputTokens: Math.max(1, Math.min(2048, budget.remainingTokens())),
            signal: AbortSignal.any([input.signal, timeout]),
          });
        } catch (error) {
          if (input.signal.aborted) throw error;
          if (timeout.aborted) return { status: 'invalid', remainingTasks: [], reason: 'the review ran out of time', cost: zero };
          const failure = modelCallError(error, model, options.baseURL);
          if (failure.code === 'ENGINE_MISCONFIGURED') throw failure;
          return { status: 'invalid', remainingTasks: [], reason: failure.message, cost: zero };
        }
        const usd = costOf(answer.usage, options.price);
        await budget.charge(answer.usage, usd);
        const cost = { usd, tokens: answer.usage.input + answer.usage.output };
        input.log(`review by ${model.provider} ${model.model}:\n${answer.text}`);
        const parsed = parseReview(answer.text);
        return parsed.status === 'invalid'
          ? { status: 'invalid', remainingTasks: [], reason: `malformed review answer: ${parsed.reason}`, cost }
          : { ...parsed, cost };
      } finally {
        budget.end();
      }
    },
  };
}
