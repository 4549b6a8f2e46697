// ESLint: its default ("stylish") output, or its JSON (`--format json`) where the command asks for it.
// Errors are the diagnostics; warnings only when there is no error (then they are what fails the check:
// `--max-warnings`).
import type { Diagnostic } from '../core/check-result.ts';
import { afterProgram, namesProgram, repositoryPath, type CheckTool } from './check-tool.ts';

const POSITION = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)(?:\s{2,}(@?[\w-]+(?:\/[\w-]+)*))?\s*$/;
const FILE_HEADER = /^(\/|\.{0,2}\/?[\w@.-]+\/)?[^\s:]+\.\w+$/;

interface Found extends Diagnostic {
  severity: 'error' | 'warning';
}

function stylish(output: string, cwd: string): Found[] {
  const found: Found[] = [];
  let file: string | null = null;
  for (const line of output.split('\n')) {
    const position = POSITION.exec(line);
    if (position && file) {
      const [, row, column, severity, message = '', rule] = position;
      found.push({
        tool: 'eslint',
        file,
        line: Number(row),
        column: Number(column),
        ...(rule ? { rule } : {}),
        message: message.trim(),
        severity: severity === 'warning' ? 'warning' : 'error',
      });
    } else if (FILE_HEADER.test(line.trim()) && !/^\s/.test(line)) file = repositoryPath(line.trim(), cwd);
    else if (!position && line.trim() === '') file = null;
  }
  return found;
}

interface JsonResult {
  filePath: string;
  messages: Array<{ ruleId?: string | null; severity: number; message: string; line?: number; column?: number }>;
}

function json(output: string, cwd: string): Found[] {
  const start = output.indexOf('[{"filePath"');
  if (start === -1) return [];
  const end = output.lastIndexOf(']');
  let results: JsonResult[];
  try {
    results = JSON.parse(output.slice(start, end + 1)) as JsonResult[];
  } catch {
    return [];
  }
  return results.flatMap((result) =>
    result.messages.map((m) => ({
      tool: 'eslint',
      file: repositoryPath(result.filePath, cwd),
      ...(m.line !== undefined ? { line: m.line } : {}),
      ...(m.column !== undefined ? { column: m.column } : {}),
      ...(m.ruleId ? { rule: m.ruleId } : {}),
      message: m.message.replace(/\.$/, ''),
      severity: m.severity === 2 ? ('error' as const) : ('warning' as const),
    })),
  );
}

function parse(output: string, cwd: string): Diagnostic[] {
  const found = [...json(output, cwd), ...stylish(output, cwd)];
  const errors = found.filter((f) => f.severity === 'error');
  return (errors.length > 0 ? errors : found).map(({ severity: _severity, ...diagnostic }) => diagnostic);
}

export const eslintTool: CheckTool = {
  id: 'eslint',
  startedBy: (command) => namesProgram(command, 'eslint'),
  parse,
  fixer: {
    from: 'node_modules',
    program: 'eslint',
    args: (files) => ['--fix', '--', ...files],
    fromCheck: (command) => afterProgram(command, 'eslint', '--fix'),
  },
  configuration: {
    files: /(^|\/)(eslint\.config\.[cm]?[jt]s|\.eslintrc(\.(c?js|mjs|json|ya?ml))?|\.eslintignore)$/,
    sections: {},
    packageKeys: ['eslintConfig', 'eslintIgnore'],
  },
  silencers: /eslint-disable|\/\*\s*eslint(-env)?\s|\/\*\s*globals?\s/,
};
