// The TypeScript compiler: `file(line,col): error TSxxxx: …` (its plain output) and
// `file:line:col - error TSxxxx: …` (`--pretty`, colours stripped). Nothing fixes a type error but
// a change to the code.
import type { Diagnostic } from '../core/check-result.ts';
import { stripAnsi } from '../formats/strip-ansi.ts';
import { namesProgram, repositoryPath, type CheckTool } from './check-tool.ts';

const PLAIN = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const PRETTY = /^(.+?):(\d+):(\d+) - error (TS\d+): (.*)$/;
const GLOBAL = /^error (TS\d+): (.*)$/;

function parse(output: string, cwd: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const raw of stripAnsi(output).split('\n')) {
    const line = raw.trimEnd();
    const match = PLAIN.exec(line) ?? PRETTY.exec(line);
    if (match) {
      const [, file = '', row, column, rule = '', message = ''] = match;
      diagnostics.push({
        tool: 'tsc',
        file: repositoryPath(file, cwd),
        line: Number(row),
        column: Number(column),
        rule,
        message,
      });
      continue;
    }
    const global = GLOBAL.exec(line.trim());
    if (global) diagnostics.push({ tool: 'tsc', file: null, rule: global[1] ?? '', message: global[2] ?? '' });
  }
  return diagnostics;
}

export const tscTool: CheckTool = {
  id: 'tsc',
  startedBy: (command) => namesProgram(command, 'tsc'),
  parse,
  fixer: null,
  configuration: { files: /(^|\/)(tsconfig[^/]*\.json|jsconfig\.json)$/, sections: {}, packageKeys: [] },
  silencers: /@ts-(ignore|expect-error|nocheck)/,
};
