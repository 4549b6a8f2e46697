// The reviewer port: after a verified green attempt, an optional second model reads the goal, the
// diff and the report. Only `STATUS: ok` lets the attempt stand; `missing` sends the remaining tasks
// into the next attempt; any other answer is a failed review.
import type { BudgetStop, Cost } from './cost.ts';

export interface ReviewInput {
  goal: string;
  remainingTasks: string[];
  diff: string;
  /** The verification report of the patch, in Markdown. */
  report: string;
  signal: AbortSignal;
  /** Epoch milliseconds by which the review must be done. */
  deadline: number;
  log: (line: string) => void;
}

export type ReviewStatus = 'ok' | 'missing' | 'invalid';

export interface ReviewOutcome {
  status: ReviewStatus;
  remainingTasks: string[];
  /** Why a review failed (`invalid`), in words. */
  reason?: string;
  cost: Cost;
  budgetStop?: BudgetStop;
}

export interface Reviewer {
  /** e.g. `anthropic claude-haiku-4-5`, for the report. */
  readonly name: string;
  review(input: ReviewInput): Promise<ReviewOutcome>;
}
