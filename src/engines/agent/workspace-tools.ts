// The agent's file tools. Every one goes through the workspace API, so the path policy (allowed and
// protected paths, no escape through `..` or symlinks) holds for the model exactly as for fixloop.
import type { Workspace } from '../../workspace/workspace.ts';
import { PathPolicyError } from '../../workspace/local-workspace.ts';
import { replaceExactlyOnce } from './edit-text.ts';

export interface ToolAnswer {
  content: string;
  isError: boolean;
  /** A write the path policy refused: told to the model and recorded in the report. */
  refused?: string;
}

const MAX_READ_LINES = 800;
const MAX_READ_CHARS = 60_000;
const MAX_LISTED = 400;
const MAX_MATCHES = 80;
const MAX_SEARCHED_BYTES = 1_000_000;

export class ToolInputError extends Error {}

/** The lines of a text; a final newline ends the last line rather than starting another. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

export function stringArg(
  input: Record<string, unknown>,
  name: string,
  options: { optional?: boolean; allowEmpty?: boolean } = {},
): string | undefined {
  const value = input[name];
  if (value === undefined || value === null) {
    if (options.optional) return undefined;
    throw new ToolInputError(`missing \`${name}\``);
  }
  if (typeof value !== 'string') throw new ToolInputError(`\`${name}\` must be a string`);
  if (!options.allowEmpty && value.length === 0) throw new ToolInputError(`\`${name}\` must not be empty`);
  return value;
}

function positiveInt(input: Record<string, unknown>, name: string): number | undefined {
  const value = input[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new ToolInputError(`\`${name}\` must be a positive integer`);
  return value;
}

export async function readFileTool(workspace: Workspace, input: Record<string, unknown>): Promise<ToolAnswer> {
  const path = stringArg(input, 'path') ?? '';
  const text = await readOrExplain(workspace, path);
  if (typeof text !== 'string') return text;
  const lines = splitLines(text);
  const start = positiveInt(input, 'start_line') ?? 1;
  const asked = positiveInt(input, 'end_line');
  if (asked !== undefined && asked < start)
    return { content: `${path}: end_line ${asked} is before start_line ${start}`, isError: true };
  if (start > Math.max(1, lines.length))
    return { content: `${path} has ${lines.length} lines; start_line ${start} is past its end`, isError: true };
  const end = Math.min(lines.length, asked ?? start + MAX_READ_LINES - 1, start + MAX_READ_LINES - 1);
  let body = lines.slice(start - 1, end).join('\n');
  if (body.length > MAX_READ_CHARS)
    body = `${body.slice(0, MAX_READ_CHARS)}\n… (cut at ${MAX_READ_CHARS} characters; read a smaller line range)`;
  const range = start === 1 && end >= lines.length ? `${lines.length} lines` : `lines ${start}-${end} of ${lines.length}`;
  return { content: `${path} (${range}):\n${body}`, isError: false };
}

export async function listFilesTool(workspace: Workspace, input: Record<string, unknown>): Promise<ToolAnswer> {
  const prefix = (stringArg(input, 'path', { optional: true, allowEmpty: true }) ?? '').replace(/^\.\/?/, '').replace(/\/?$/, '');
  const files = (await workspace.listFiles()).filter((f) => prefix === '' || f.startsWith(`${prefix}/`) || f === prefix);
  if (files.length === 0) return { content: `no files under \`${prefix || '.'}\``, isError: false };
  const shown = files.slice(0, MAX_LISTED);
  return {
    content: `${shown.join('\n')}${files.length > MAX_LISTED ? `\n… ${files.length - MAX_LISTED} more; list a sub-folder` : ''}`,
    isError: false,
  };
}

export async function searchTool(workspace: Workspace, input: Record<string, unknown>): Promise<ToolAnswer> {
  const pattern = stringArg(input, 'pattern') ?? '';
  const prefix = (stringArg(input, 'path', { optional: true, allowEmpty: true }) ?? '').replace(/\/?$/, '');
  let matcher: RegExp;
  try {
    matcher = input.regex === true ? new RegExp(pattern) : new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  } catch (error) {
    throw new ToolInputError(`\`pattern\` is not a valid regular expression: ${(error as Error).message}`);
  }
  const matches: string[] = [];
  let more = 0;
  for (const file of await workspace.listFiles()) {
    if (prefix && !file.startsWith(`${prefix}/`) && file !== prefix) continue;
    const text = await workspace.readFile(file).catch(() => null);
    if (text === null || text.length > MAX_SEARCHED_BYTES || text.includes('\u0000')) continue;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!matcher.test(lines[i] ?? '')) continue;
      if (matches.length >= MAX_MATCHES) more++;
      else matches.push(`${file}:${i + 1}: ${(lines[i] ?? '').trim().slice(0, 200)}`);
    }
  }
  if (matches.length === 0) return { content: `no match for \`${pattern}\``, isError: false };
  return {
    content: `${matches.join('\n')}${more > 0 ? `\n… ${more} more matches; narrow the pattern or the path` : ''}`,
    isError: false,
  };
}

export async function writeFileTool(workspace: Workspace, input: Record<string, unknown>): Promise<ToolAnswer> {
  const path = stringArg(input, 'path') ?? '';
  const content = stringArg(input, 'content', { allowEmpty: true }) ?? '';
  return writeThroughPolicy(workspace, path, content, `wrote ${path} (${splitLines(content).length} lines)`);
}

export async function editFileTool(workspace: Workspace, input: Record<string, unknown>): Promise<ToolAnswer> {
  const path = stringArg(input, 'path') ?? '';
  const oldText = stringArg(input, 'old_text', { allowEmpty: true }) ?? '';
  const newText = stringArg(input, 'new_text', { allowEmpty: true }) ?? '';
  const text = await readOrExplain(workspace, path);
  if (typeof text !== 'string') return text;
  const edited = replaceExactlyOnce(text, oldText, newText);
  if (!edited.ok) return { content: `edit_file ${path} refused: ${edited.reason}`, isError: true };
  return writeThroughPolicy(workspace, path, edited.content, `edited ${path}`);
}

async function writeThroughPolicy(workspace: Workspace, path: string, content: string, done: string): Promise<ToolAnswer> {
  try {
    await workspace.writeFile(path, content);
    return { content: done, isError: false };
  } catch (error) {
    if (error instanceof PathPolicyError) {
      const reason = `${path}: ${error.finding.message}`;
      return {
        content: `refused: ${error.finding.message}. You may not change this file; change the code under test instead.`,
        isError: true,
        refused: reason,
      };
    }
    throw error;
  }
}

async function readOrExplain(workspace: Workspace, path: string): Promise<string | ToolAnswer> {
  try {
    return await workspace.readFile(path);
  } catch (error) {
    if (error instanceof PathPolicyError) return { content: `refused: ${error.finding.message}`, isError: true };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      return { content: `${path} does not exist; use list_files or search to find the right path`, isError: true };
    if (code === 'EISDIR') return { content: `${path} is a folder; use list_files`, isError: true };
    throw error;
  }
}
