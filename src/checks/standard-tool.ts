// JavaScript Standard Style (`standard`): ESLint with a fixed configuration, one line per problem,
// `  <file>:<line>:<column>: <message> (<rule>)`, a warning ending in `(warning)`. Warnings do not
// fail it (it exits 0 with only those), so they are not counted.
import type { Diagnostic } from '../core/check-result.ts';
import { afterProgram, namesProgram, repositoryPath, type CheckTool } from './check-tool.ts';

// A JavaScript or TypeScript file's: a Python linter's `a.py:1:1: F401 …` is not one of its lines.
const LINE = /^\s*(\S.*?\.[cm]?[jt]sx?):(\d+):(\d+): (.+?)(?: \(([@\w/-]+)\))?( \(warning\))?\s*$/;

function parse(output: string, cwd: string): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const line of output.split('\n')) {
    // Its own notes (`standard: Run \`standard --fix\` …`) name no file and line.
    const match = /^\s*[\w-]+: /.test(line) ? null : LINE.exec(line);
    if (!match) continue;
    const [, file = '', row, column, message = '', rule, warning] = match;
    if (warning) continue;
    found.push({
      tool: 'standard',
      file: repositoryPath(file, cwd),
      line: Number(row),
      column: Number(column),
      ...(rule ? { rule } : {}),
      message: message.replace(/\.$/, ''),
    });
  }
  return found;
}

export const standardTool: CheckTool = {
  id: 'standard',
  startedBy: (command) => namesProgram(command, 'standard'),
  parse,
  fixer: {
    from: 'node_modules',
    program: 'standard',
    args: (files) => ['--fix', '--', ...files],
    fromCheck: (command) => afterProgram(command, 'standard', '--fix'),
  },
  // Configured in package.json only (its `globals`, `ignore`, `env`, `parser`); `.eslintignore` is read too.
  configuration: { files: /(^|\/)\.eslintignore$/, sections: {}, packageKeys: ['standard'] },
  silencers: /eslint-disable|\/\*\s*eslint(-env)?\s|\/\*\s*globals?\s/,
};
