// The reviewer's prompt: the review template (or the repository's `.github/fixloop/review.md`) filled in.
import { fenceRequestText } from '../../core/request-text.ts';
import type { ReviewInput } from '../../core/reviewer.ts';
import type { Workspace } from '../../workspace/workspace.ts';
import { renderTemplate } from './task-values.ts';
import type { Template, TemplateName } from './templates.ts';

const MAX_DIFF_CHARS = 60_000;

export async function reviewPrompt(
  input: ReviewInput,
  workspace: Workspace,
  templates: (name: TemplateName, workspace: Workspace) => Promise<Template>,
): Promise<string> {
  const template = await templates('review', workspace);
  input.log(`review prompt from ${template.source}`);
  return renderTemplate(template.text, {
    goal: fenceRequestText(input.goal),
    remaining_tasks: input.remainingTasks.length > 0 ? input.remainingTasks.map((t) => `- ${t}`).join('\n') : '(none)',
    diff: input.diff.length > MAX_DIFF_CHARS ? `${input.diff.slice(0, MAX_DIFF_CHARS)}\n… (cut)` : input.diff,
    report: input.report,
  });
}
