// Prompt templates ship with fixloop and can be overridden per repository by a file of the same
// name in `.github/fixloop/` (implement.md, write-test.md, review.md). Placeholders: task-values.ts.
import { readFile } from 'node:fs/promises';
import type { Workspace } from '../../workspace/workspace.ts';

export const TEMPLATE_NAMES = ['implement', 'write-test', 'review'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export interface Template {
  text: string;
  /** Where it came from, for the attempt log. */
  source: string;
}

const MAX_TEMPLATE_CHARS = 50_000;

export function overridePath(name: TemplateName): string {
  return `.github/fixloop/${name}.md`;
}

export async function shippedTemplate(name: TemplateName): Promise<Template> {
  return { text: await readFile(new URL(`./templates/${name}.md`, import.meta.url), 'utf8'), source: `fixloop's ${name}.md` };
}

/**
 * Loads the templates once per run, before any engine has touched the workspace. The override is
 * read through the workspace, so a link leading outside the repository is refused like any path.
 */
export function createTemplateSource(): (name: TemplateName, workspace: Workspace) => Promise<Template> {
  const cache = new Map<TemplateName, Promise<Template>>();
  return (name, workspace) => {
    let template = cache.get(name);
    if (!template) {
      template = (async () => {
        const path = overridePath(name);
        const text = await workspace.readFile(path).catch(() => null);
        if (text !== null && text.trim() && text.length <= MAX_TEMPLATE_CHARS) return { text, source: path };
        return shippedTemplate(name);
      })();
      cache.set(name, template);
    }
    return template;
  };
}
