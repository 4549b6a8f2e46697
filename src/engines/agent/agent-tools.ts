// The tools offered to the model, and their dispatch. `complete` ends the attempt.
import type { ToolCall, ToolSpec } from './chat-model.ts';
import { runTestsTool, type TestToolContext } from './test-tool.ts';
import {
  editFileTool,
  listFilesTool,
  readFileTool,
  searchTool,
  ToolInputError,
  writeFileTool,
  type ToolAnswer,
} from './workspace-tools.ts';

const path = { type: 'string', description: 'Repository-relative path, e.g. src/cart.js' };

export const AGENT_TOOLS: ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Read a text file of the repository (up to 800 lines at a time; use start_line/end_line for long files).',
    parameters: {
      type: 'object',
      properties: { path, start_line: { type: 'integer', minimum: 1 }, end_line: { type: 'integer', minimum: 1 } },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'list_files',
    description: 'List the repository files, optionally under a folder.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'A folder; omit for the whole repository' } },
      additionalProperties: false,
    },
  },
  {
    name: 'search',
    description: 'Search the text of the repository files; answers file:line: text.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string' },
        regex: { type: 'boolean', description: 'Treat the pattern as a JavaScript regular expression' },
        path: { type: 'string', description: 'Only under this folder' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
  {
    name: 'write_file',
    description: 'Create or overwrite a file with the full content given.',
    parameters: {
      type: 'object',
      properties: { path, content: { type: 'string' } },
      required: ['path', 'content'],
      additionalProperties: false,
    },
  },
  {
    name: 'edit_file',
    description:
      'Replace old_text by new_text in a file. old_text must match exactly (whitespace included) and occur exactly once.',
    parameters: {
      type: 'object',
      properties: { path, old_text: { type: 'string' }, new_text: { type: 'string' } },
      required: ['path', 'old_text', 'new_text'],
      additionalProperties: false,
    },
  },
  {
    name: 'run_tests',
    description:
      'Run the tests in the sandbox: the failing tests first, then the whole suite once they pass; or only the tests named. Answers the parsed failures.',
    parameters: {
      type: 'object',
      properties: { tests: { type: 'array', items: { type: 'string' }, description: 'Test ids or names to run alone' } },
      additionalProperties: false,
    },
  },
  {
    name: 'complete',
    description:
      'Finish this attempt when you believe the work is done. fixloop then runs the full test suite itself and verifies the patch.',
    parameters: {
      type: 'object',
      properties: { summary: { type: 'string', description: 'What you changed and why, in one or two sentences' } },
      required: ['summary'],
      additionalProperties: false,
    },
  },
];

export type ToolOutcome = ToolAnswer & { completed?: string };

export async function runTool(call: ToolCall, ctx: TestToolContext): Promise<ToolOutcome> {
  if (call.inputError) return { content: `${call.name}: ${call.inputError}`, isError: true };
  try {
    switch (call.name) {
      case 'read_file':
        return await readFileTool(ctx.workspace, call.input);
      case 'list_files':
        return await listFilesTool(ctx.workspace, call.input);
      case 'search':
        return await searchTool(ctx.workspace, call.input);
      case 'write_file':
        return await writeFileTool(ctx.workspace, call.input);
      case 'edit_file':
        return await editFileTool(ctx.workspace, call.input);
      case 'run_tests':
        return await runTestsTool(ctx, call.input);
      case 'complete': {
        const summary =
          typeof call.input.summary === 'string' && call.input.summary.trim() ? call.input.summary.trim() : 'completed';
        return { content: 'fixloop will now run the full test suite and verify the patch.', isError: false, completed: summary };
      }
      default:
        return {
          content: `unknown tool \`${call.name}\`; the tools are: ${AGENT_TOOLS.map((t) => t.name).join(', ')}`,
          isError: true,
        };
    }
  } catch (error) {
    if (error instanceof ToolInputError) return { content: `${call.name}: ${error.message}`, isError: true };
    throw error;
  }
}
