// Prettier: `--check` names each file it would reformat (`[warn] src/a.js`), and a file it cannot parse
// (`[error] src/a.js: SyntaxError: … (3:5)`).
import type { Diagnostic } from '../core/check-result.ts';
import { namesProgram, repositoryPath, type CheckTool } from './check-tool.ts';

const WOULD_REFORMAT = /^\[warn\]\s+(\S.*?)\s*$/;
const CANNOT_PARSE = /^\[error\]\s+([^:\s][^:]*?):\s+(.*?)(?:\s+\((\d+):(\d+)\))?\s*$/;
const SUMMARY = /^Code style issues (found|were found)|^Forgot to run Prettier\?/;

function parse(output: string, cwd: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split('\n')) {
    const warn = WOULD_REFORMAT.exec(line);
    if (warn?.[1] && !SUMMARY.test(warn[1])) {
      diagnostics.push({ tool: 'prettier', file: repositoryPath(warn[1], cwd), message: 'not formatted as Prettier formats it' });
      continue;
    }
    const error = CANNOT_PARSE.exec(line);
    if (error?.[1] && error[2] && /\.\w+$/.test(error[1]))
      diagnostics.push({
        tool: 'prettier',
        file: repositoryPath(error[1], cwd),
        ...(error[3] ? { line: Number(error[3]), column: Number(error[4]) } : {}),
        message: error[2],
      });
  }
  return diagnostics;
}

const CHECK_FLAGS = /(^|\s)(--check|-c|--list-different|-l)(?=\s|$)/;

export const prettierTool: CheckTool = {
  id: 'prettier',
  startedBy: (command) => namesProgram(command, 'prettier'),
  parse,
  fixer: {
    from: 'node_modules',
    program: 'prettier',
    args: (files) => ['--write', '--', ...files],
    fromCheck: (command) => (CHECK_FLAGS.test(command) ? command.replace(CHECK_FLAGS, '$1--write') : null),
  },
  configuration: {
    files:
      /(^|\/)(\.prettierrc(\.(json5?|ya?ml|toml|[cm]?[jt]s))?|prettier\.config\.[cm]?[jt]s|\.prettierignore|\.editorconfig)$/,
    sections: {},
    packageKeys: ['prettier'],
  },
  silencers: /prettier-ignore/,
};
