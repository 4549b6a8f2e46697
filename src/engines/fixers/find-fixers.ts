// Which of the repository's own fixers answer a failing check (docs/engines.md): for each tool the
// check runs (directly or through package.json scripts), its fixer on the files the check names
// (`eslint --fix`, `prettier --write` from the repository's node_modules; black, isort, ruff from the
// user's PATH), or the check's own command turned into its fixer when the check named no file; for a
// check whose tools fixloop does not know or cannot fix, the project's `lint:fix`, `format` or `fix`
// scripts. A file the path policy refuses (a test, by default) is left to the check.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckRun, Diagnostic } from '../../core/check-result.ts';
import { checkToolById, checkToolsOf, commandParts, type CheckTool } from '../../checks/registry.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';
import { createPathPolicy } from '../../workspace/path-policy.ts';
import type { AttemptContext } from '../engine.ts';
import { packageScripts } from '../../runners/package-scripts.ts';

/** The project's own fixing scripts, in the order tried. */
export const FIX_SCRIPTS = ['lint:fix', 'format', 'fix'] as const;

export interface FixerCommand {
  command: string;
  /** What it fixes, in words, for the log and the summary. */
  why: string;
}

export interface FoundFixers {
  commands: FixerCommand[];
  /** Why a tool the checks run has no fixer here (not installed, none exists). */
  missing: string[];
}

interface Finder {
  ctx: AttemptContext;
  scripts: Record<string, string>;
  /** Whether the user's PATH in the sandbox finds a program (asked once each). */
  onPath: Map<string, Promise<boolean>>;
  writable: (file: string) => boolean;
}

async function installed(finder: Finder, tool: CheckTool): Promise<string | null> {
  const fixer = tool.fixer;
  if (!fixer) return null;
  if (fixer.from === 'node_modules') {
    const path = join('node_modules', '.bin', fixer.program);
    return (await access(join(finder.ctx.workspace.root, path)).then(
      () => true,
      () => false,
    ))
      ? `./${path}`
      : null;
  }
  let found = finder.onPath.get(fixer.program);
  if (!found) {
    found = finder.ctx.sandbox
      .run({
        command: `command -v ${shellQuote(fixer.program)}`,
        cwd: finder.ctx.workspace.root,
        timeoutMs: 10_000,
        env: finder.ctx.config.env,
      })
      .then((r) => r.exitCode === 0);
    finder.onPath.set(fixer.program, found);
  }
  return (await found) ? fixer.program : null;
}

/** The fixer of one tool for one failing check, or why there is none. */
async function toolFixer(finder: Finder, tool: CheckTool, run: CheckRun, own: Diagnostic[]): Promise<FixerCommand | string> {
  const fixer = tool.fixer;
  if (!fixer) return `${tool.id} has no fixer: what it reports needs a change to the code`;
  const named = own.flatMap((d) => (d.file ? [d.file] : []));
  const files = [...new Set(named)].filter(finder.writable);
  if (named.length > 0 && files.length === 0)
    return `${tool.id}: every file the check names is one a fix may not change (paths.protected)`;
  const program = await installed(finder, tool);
  if (!program)
    return `${tool.id} is not installed ${fixer.from === 'node_modules' ? "in the repository's node_modules" : "on the user's PATH"}`;
  if (files.length > 0)
    return {
      command: [program, ...fixer.args(files, own)].map((w, i) => (i === 0 ? w : shellQuote(w))).join(' '),
      why: `${tool.id} on the ${files.length} file(s) the check names`,
    };
  // The check named no file: its own command, made the fixer, fixes what it checked.
  const part = commandParts(run.command, finder.scripts).find((p) => tool.startedBy(p));
  const fromCheck = part ? fixer.fromCheck(part) : null;
  return fromCheck
    ? { command: fromCheck, why: `${tool.id}, as the check runs it` }
    : `${tool.id}: the check names no file to fix`;
}

/** The fixers for the checks that fail in the attempt's last gate. */
export async function findFixers(ctx: AttemptContext): Promise<FoundFixers> {
  const policy = createPathPolicy(ctx.config.paths);
  const finder: Finder = {
    ctx,
    scripts: await packageScripts(ctx.workspace.root),
    onPath: new Map(),
    writable: (file) => policy.check(file) === null,
  };
  const commands: FixerCommand[] = [];
  const missing: string[] = [];
  const add = (found: FixerCommand | string) => {
    if (typeof found === 'string') missing.push(found);
    else if (!commands.some((c) => c.command === found.command)) commands.push(found);
  };
  for (const run of (ctx.lastGate.checks ?? []).filter((c) => !c.passed)) {
    const fromDiagnostics = run.diagnostics.flatMap((d) => checkToolById(d.tool) ?? []);
    const tools = [...new Set([...checkToolsOf(run.command, finder.scripts), ...fromDiagnostics])];
    const before = commands.length;
    for (const tool of tools)
      add(
        await toolFixer(
          finder,
          tool,
          run,
          run.diagnostics.filter((d) => d.tool === tool.id),
        ),
      );
    if (commands.length > before) continue;
    // No tool of its own fixes it: the project's fixing scripts, when it has some.
    for (const name of FIX_SCRIPTS)
      if (finder.scripts[name]) add({ command: `npm run ${name}`, why: `the project's \`${name}\` script` });
  }
  return { commands, missing };
}
