// The task prompt of an attempt (agent and cli engines alike): the mode's template, filled in.
import type { AttemptContext } from '../engine.ts';
import { renderTemplate, taskValues } from './task-values.ts';
import type { Template, TemplateName } from './templates.ts';
import type { Workspace } from '../../workspace/workspace.ts';

export async function buildTaskPrompt(
  ctx: AttemptContext,
  templates: (name: TemplateName, workspace: Workspace) => Promise<Template>,
): Promise<string> {
  const template = await templates(ctx.mode === 'write-test' ? 'write-test' : 'implement', ctx.workspace);
  ctx.log(`prompt: ${ctx.mode} from ${template.source}`);
  return renderTemplate(template.text, await taskValues(ctx));
}
