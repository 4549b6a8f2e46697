// What a model (or a coding agent) is told about a task: the placeholders of the prompt templates.
// Built from what the loop already knows: the goal, the failing tests, the repair engine's fault
// localization, a compact map of the repository, and how the earlier attempts ended.
import { fenceRequestText } from '../../core/request-text.ts';
import type { AttemptContext } from '../engine.ts';
import type { SuspiciousLine } from '../repair/candidate.ts';
import { localizeFaults } from '../repair/localize/localize-faults.ts';
import { createTestFileMatcher } from '../../workspace/path-policy.ts';

export type PromptValues = Record<string, string>;

const MAX_FAILING = 10;
const MAX_MESSAGE_LINES = 25;
const MAX_LOCATIONS = 8;
const MAX_MAPPED_FILES = 300;

export async function taskValues(ctx: AttemptContext): Promise<PromptValues> {
  const files = await ctx.workspace.listFiles();
  return {
    // The request's text, cleaned by the loop (src/loop/clean-request.ts), reaches a model only as
    // quoted data: a repository's own template cannot forget the fence, since the value carries it.
    goal: fenceRequestText(ctx.goal.trim() || 'Make the failing tests pass.'),
    instructions: ctx.instructions?.trim() ? fenceRequestText(ctx.instructions.trim(), 'instructions') : '(none)',
    mode: ctx.mode,
    failing_tests: failingTests(ctx),
    suspicious_locations: await suspiciousLocations(ctx, files),
    repo_map: repoMap(files),
    previous_attempts: previousAttempts(ctx),
    remaining_tasks: ctx.remainingTasks.length > 0 ? ctx.remainingTasks.map((t) => `- ${t}`).join('\n') : '(none)',
    // A check run's checks must pass, and the tests beside them.
    acceptance_commands: [...ctx.config.checks, ctx.config.test.command ?? ''].filter(Boolean).join('\n') || '(none)',
    protected_paths: ctx.config.paths.protected.join(', '),
  };
}

function failingTests(ctx: AttemptContext): string {
  const failing = ctx.lastGate.report.tests.filter((t) => t.status === 'failed');
  if (failing.length === 0) {
    if (ctx.lastGate.passed) return '(none: every test passes)';
    return `(the output could not be parsed per test; its end:)\n${ctx.lastGate.output.slice(-3000)}`;
  }
  const shown = failing.slice(0, MAX_FAILING).map((t) => {
    const detail = [t.message, t.stack].filter(Boolean).join('\n').split('\n').slice(0, MAX_MESSAGE_LINES).join('\n');
    return `- ${t.id}${t.file ? ` (${t.file})` : ''}${detail ? `\n${detail.replace(/^/gm, '    ')}` : ''}`;
  });
  if (failing.length > MAX_FAILING) shown.push(`- … ${failing.length - MAX_FAILING} more`);
  return shown.join('\n');
}

function localize(ctx: AttemptContext, files: string[]): Promise<SuspiciousLine[]> {
  const failing = ctx.lastGate.report.tests.filter((t) => t.status === 'failed');
  return localizeFaults({
    root: ctx.workspace.root,
    files,
    failing,
    output: ctx.lastGate.output,
    hints: ctx.hints,
    isTestFile: createTestFileMatcher(ctx.config.paths.protected),
    limit: 2000,
  }).catch(() => []);
}

/** The source files most likely to hold the bug, best first (for agents that edit named files). */
export async function suspiciousFiles(ctx: AttemptContext, limit = 5): Promise<string[]> {
  const lines = await localize(ctx, await ctx.workspace.listFiles());
  return [...new Set(lines.map((l) => l.file))].slice(0, limit);
}

async function suspiciousLocations(ctx: AttemptContext, files: string[]): Promise<string> {
  const lines = await localize(ctx, files);
  // Whole-file signals (imported by a failing test, a small repository) rank every line alike:
  // they name files, not lines.
  const wholeFile = (signals: string[]) => signals.every((s) => s === 'imported' || s === 'repository');
  const pointed = lines.filter((l) => !wholeFile(l.signals)).slice(0, MAX_LOCATIONS);
  const out: string[] = [];
  for (const l of pointed) {
    const source = (await ctx.workspace.readFile(l.file).catch(() => '')).split('\n')[l.line - 1]?.trim() ?? '';
    out.push(
      `- ${l.file}:${l.line} (${l.signals.join(', ')}, score ${l.score.toFixed(2)})${source ? `: \`${source.slice(0, 160)}\`` : ''}`,
    );
  }
  const named = new Set(pointed.map((l) => l.file));
  for (const file of new Set(lines.filter((l) => wholeFile(l.signals)).map((l) => l.file))) {
    if (named.has(file) || out.length >= MAX_LOCATIONS + 4) continue;
    out.push(`- ${file} (imported by the failing tests)`);
  }
  return out.length > 0 ? out.join('\n') : '(no source location stands out)';
}

function repoMap(files: string[]): string {
  const byFolder = new Map<string, string[]>();
  for (const file of files.slice(0, MAX_MAPPED_FILES)) {
    const slash = file.lastIndexOf('/');
    const folder = slash === -1 ? '.' : file.slice(0, slash);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), file.slice(slash + 1)]);
  }
  const lines = [...byFolder].map(([folder, names]) => `${folder}/: ${names.join(', ')}`);
  if (files.length > MAX_MAPPED_FILES) lines.push(`… ${files.length - MAX_MAPPED_FILES} more files (use list_files)`);
  return lines.join('\n');
}

function previousAttempts(ctx: AttemptContext): string {
  if (ctx.previousAttempts.length === 0) return '(none: this is the first attempt)';
  return ctx.previousAttempts.map((a) => `- attempt ${a.attempt} (${a.engine}): ${a.verdict}. ${a.summary}`).join('\n');
}

/** Replaces `{{name}}` placeholders; unknown names are left as they are, so a typo shows in the prompt. */
export function renderTemplate(template: string, values: PromptValues): string {
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
}
