// The reviewer's strict answer protocol: line 1 `STATUS: ok` or `STATUS: missing`, line 2 a JSON
// object `{"remainingTasks": [...]}`. Anything else is a failed review, never a guess.
import { z } from 'zod';
import type { ReviewStatus } from '../core/reviewer.ts';

export type ParsedReview =
  | { status: Exclude<ReviewStatus, 'invalid'>; remainingTasks: string[] }
  | { status: 'invalid'; remainingTasks: []; reason: string };

const secondLine = z.object({ remainingTasks: z.array(z.string().trim().min(1)) }).strict();

export function parseReview(answer: string): ParsedReview {
  const invalid = (reason: string): ParsedReview => ({ status: 'invalid', remainingTasks: [], reason });
  const lines = answer.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  if (lines.length !== 2) return invalid(`expected exactly 2 lines, got ${lines.length}`);
  const status = /^STATUS: (ok|missing)$/.exec(lines[0] ?? '')?.[1];
  if (!status) return invalid(`line 1 must be \`STATUS: ok\` or \`STATUS: missing\`, got \`${(lines[0] ?? '').slice(0, 80)}\``);
  let json: unknown;
  try {
    json = JSON.parse(lines[1] ?? '');
  } catch {
    return invalid('line 2 is not JSON');
  }
  const parsed = secondLine.safeParse(json);
  if (!parsed.success) return invalid('line 2 must be {"remainingTasks": [<non-empty strings>]} and nothing else');
  const tasks = parsed.data.remainingTasks;
  if (status === 'ok' && tasks.length > 0) return invalid('`STATUS: ok` with remaining tasks');
  if (status === 'missing' && tasks.length === 0) return invalid('`STATUS: missing` without any remaining task');
  return { status: status === 'ok' ? 'ok' : 'missing', remainingTasks: tasks };
}
