// The line format Python's linters share: `path:line:col: CODE message` (flake8, ruff's concise
// output), `path:line:col: message` (pyflakes), `path:line: error: message  [code]` (mypy), and ruff's
// full output, whose code and message come first with the place on the next line (`--> path:line:col`).
import type { Diagnostic } from '../core/check-result.ts';
import { repositoryPath } from './check-tool.ts';

const PYTHON_FILE = String.raw`[^\s:]+?\.(?:py|pyi|ipynb)`;
const LINT_LINE = new RegExp(String.raw`^(${PYTHON_FILE}):(\d+):(\d+):\s+(?:([A-Z]{1,4}\d{2,4})\s+(?:\[\*\]\s+)?)?(.+)$`);
const TYPE_LINE = new RegExp(String.raw`^(${PYTHON_FILE}):(\d+):(?:(\d+):)?\s+error:\s+(.+?)(?:\s{2}\[([\w-]+)\])?$`);
const RUFF_HEAD = /^([A-Z]{1,4}\d{2,4})\s+(?:\[\*\]\s+)?(.+)$/;
const RUFF_PLACE = new RegExp(String.raw`^\s*-->\s+(${PYTHON_FILE}):(\d+):(\d+)\s*$`);

/** Lines of the shared lint format, as `tool`'s. */
export function lintLines(output: string, cwd: string, tool: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const lines = output.split('\n');
  lines.forEach((raw, index) => {
    const line = raw.trimEnd();
    const match = LINT_LINE.exec(line);
    if (match) {
      const [, file = '', row, column, rule, message = ''] = match;
      diagnostics.push({
        tool,
        file: repositoryPath(file, cwd),
        line: Number(row),
        column: Number(column),
        ...(rule ? { rule } : {}),
        message: message.trim(),
      });
      return;
    }
    const head = RUFF_HEAD.exec(line);
    const place = head ? RUFF_PLACE.exec(lines[index + 1] ?? '') : null;
    if (head && place)
      diagnostics.push({
        tool,
        file: repositoryPath(place[1] ?? '', cwd),
        line: Number(place[2]),
        column: Number(place[3]),
        rule: head[1] ?? '',
        message: (head[2] ?? '').trim(),
      });
  });
  return diagnostics;
}

/** mypy's lines: `path:line: error: message  [code]`. */
export function typeLines(output: string, cwd: string, tool: string): Diagnostic[] {
  return output.split('\n').flatMap((raw) => {
    const match = TYPE_LINE.exec(raw.trimEnd());
    if (!match) return [];
    const [, file = '', row, column, message = '', rule] = match;
    return [
      {
        tool,
        file: repositoryPath(file, cwd),
        line: Number(row),
        ...(column ? { column: Number(column) } : {}),
        ...(rule ? { rule } : {}),
        message,
      },
    ];
  });
}

/** Files named by a line of `pattern` (its first group): a formatter's "would reformat" lines. */
export function namedFiles(output: string, cwd: string, pattern: RegExp, tool: string, message: string): Diagnostic[] {
  return output.split('\n').flatMap((raw) => {
    const match = pattern.exec(raw.trim());
    return match?.[1] ? [{ tool, file: repositoryPath(match[1], cwd), message }] : [];
  });
}
