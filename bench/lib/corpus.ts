// The bug corpus: one `.bug` file per bug, written for this project (what it measures: docs/benchmarks.md).
//
//   # id: js-01-pagination            header lines: id, language, category, test, description
//   --- project/src/paginate.js       a file of the buggy project (visible tests included)
//   --- hidden/test/extra.test.js     a hidden test: copied in only to judge a patch's correctness
//   --- fix src/paginate.js           the intended fix: `old` text, a line `===`, `new` text
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const CATEGORIES = [
  'operator',
  'off-by-one',
  'variable-misuse',
  'wrong-call',
  'missing-guard',
  'condition',
  'multi-line',
  'beyond-templates',
] as const;

const headerSchema = z.object({
  id: z.string().regex(/^[a-z]+-\d{2}-[a-z0-9-]+$/),
  language: z.enum(['javascript', 'typescript', 'python']),
  category: z.enum(CATEGORIES),
  test: z.string().min(1),
  description: z.string().min(10),
});

export type BugHeader = z.infer<typeof headerSchema>;

export interface Bug extends BugHeader {
  project: Record<string, string>;
  hidden: Record<string, string>;
  fixes: { file: string; old: string; new: string }[];
}

export function parseBug(text: string, source: string): Bug {
  const header: Record<string, string> = {};
  const sections: { name: string; body: string[] }[] = [];
  for (const line of text.split('\n')) {
    const section = /^--- (.+)$/.exec(line);
    if (section?.[1]) {
      sections.push({ name: section[1].trim(), body: [] });
      continue;
    }
    const current = sections.at(-1);
    if (current) current.body.push(line);
    else {
      const h = /^# (\w+): (.*)$/.exec(line);
      if (h?.[1] && h[2] !== undefined) header[h[1]] = h[2].trim();
    }
  }
  const parsed = headerSchema.safeParse(header);
  if (!parsed.success)
    throw new Error(`${source}: bad header: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const bug: Bug = { ...parsed.data, project: {}, hidden: {}, fixes: [] };
  for (const { name, body } of sections) {
    const content = `${body.join('\n').replace(/\n+$/, '')}\n`;
    if (name.startsWith('project/')) bug.project[name.slice('project/'.length)] = content;
    else if (name.startsWith('hidden/')) bug.hidden[name.slice('hidden/'.length)] = content;
    else if (name.startsWith('fix ')) {
      const split = body.indexOf('===');
      if (split === -1) throw new Error(`${source}: section "${name}" needs a line "===" between the old and the new text`);
      bug.fixes.push({
        file: name.slice(4).trim(),
        old: body.slice(0, split).join('\n'),
        new: body
          .slice(split + 1)
          .join('\n')
          .replace(/\n+$/, ''),
      });
    } else throw new Error(`${source}: unknown section "${name}"`);
  }
  if (Object.keys(bug.project).length === 0) throw new Error(`${source}: no project files`);
  if (Object.keys(bug.hidden).length === 0) throw new Error(`${source}: no hidden tests`);
  if (bug.fixes.length === 0) throw new Error(`${source}: no fix`);
  if (bug.id !== source.replace(/^.*\//, '').replace(/\.bug$/, ''))
    throw new Error(`${source}: id ${bug.id} does not match the file name`);
  return bug;
}

/** The fixed project: each fix's old text must occur exactly once. */
export function applyFixes(bug: Bug): Record<string, string> {
  const files = { ...bug.project };
  for (const fix of bug.fixes) {
    const content = files[fix.file];
    if (content === undefined) throw new Error(`${bug.id}: fix names ${fix.file}, which is not in the project`);
    const count = content.split(fix.old).length - 1;
    if (count !== 1) throw new Error(`${bug.id}: the old text of the fix occurs ${count} times in ${fix.file}`);
    files[fix.file] = content.replace(fix.old, fix.new);
  }
  return files;
}

export function loadCorpus(dir: string): Bug[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.bug'))
    .sort()
    .map((f) => parseBug(readFileSync(join(dir, f), 'utf8'), join(dir, f)));
}
