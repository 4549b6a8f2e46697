// The check tools fixloop knows, in one list, which of them a check command runs (directly, or through
// the package.json scripts it starts), and a check's output read per diagnostic. Adding a tool is a
// file beside this one and its line here.
import type { Diagnostic } from '../core/check-result.ts';
import { stripAnsi } from '../formats/strip-ansi.ts';
import type { CheckTool } from './check-tool.ts';
import { eslintTool } from './eslint-tool.ts';
import { prettierTool } from './prettier-tool.ts';
import { blackTool, flake8Tool, isortTool, mypyTool, pyflakesTool, ruffTool } from './python-tools.ts';
import { tscTool } from './tsc-tool.ts';
import { standardTool } from './standard-tool.ts';

export type { CheckTool, Fixer } from './check-tool.ts';

/** In the order their output is read when a command's tools are unknown: the most specific formats first. */
export const CHECK_TOOLS: readonly CheckTool[] = [
  eslintTool,
  standardTool,
  prettierTool,
  tscTool,
  ruffTool,
  mypyTool,
  blackTool,
  isortTool,
  flake8Tool,
  pyflakesTool,
];

const SCRIPT_RUN = /^\s*(?:npm|pnpm|yarn)\s+(?:run(?:-script)?\s+)?([\w:.-]+)\s*$/;
const BUILT_IN = new Set(['install', 'ci', 'exec', 'add', 'remove', 'dlx']);

/**
 * The command lines a check runs: its own parts (`a && b`), and those of the package.json scripts
 * it starts (`npm run lint`, `yarn lint`), followed a few levels down.
 */
export function commandParts(command: string, scripts: Readonly<Record<string, string>> = {}, depth = 0): string[] {
  const parts = command
    .split(/&&|\|\||;/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  return parts.flatMap((part) => {
    const name = SCRIPT_RUN.exec(part)?.[1];
    const script = name && !BUILT_IN.has(name) ? scripts[name] : undefined;
    if (script === undefined || depth >= 3) return [part];
    return [part, ...commandParts(script, scripts, depth + 1)];
  });
}

/** The tools a check command runs, in the order it runs them. */
export function checkToolsOf(command: string, scripts: Readonly<Record<string, string>> = {}): CheckTool[] {
  const tools: CheckTool[] = [];
  for (const part of commandParts(command, scripts))
    for (const tool of CHECK_TOOLS) if (tool.startedBy(part) && !tools.includes(tool)) tools.push(tool);
  return tools;
}

export function checkToolById(id: string): CheckTool | null {
  return CHECK_TOOLS.find((t) => t.id === id) ?? null;
}

/**
 * A check's output read per diagnostic: by the tools the command runs, else by every tool's format.
 * Each diagnostic once, in the order printed.
 */
export function parseCheckOutput(output: string, cwd: string, tools: readonly CheckTool[]): Diagnostic[] {
  const text = stripAnsi(output);
  const read = (from: readonly CheckTool[]) => from.flatMap((tool) => safely(() => tool.parse(text, cwd)));
  const found = read(tools);
  return unique(found.length > 0 ? found : read(CHECK_TOOLS));
}

function safely(parse: () => Diagnostic[]): Diagnostic[] {
  try {
    return parse();
  } catch {
    return []; // a parser that trips on unexpected text just does not apply
  }
}

function unique(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.file}:${d.line}:${d.column}:${d.rule}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
