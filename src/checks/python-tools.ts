// Python's linters, formatters and type checker: ruff (lint and format), flake8, pyflakes, mypy,
// black and isort. The formatters and ruff fix what they report; the others need a change to the code.
import type { Diagnostic } from '../core/check-result.ts';
import { namesProgram, withoutFlags, type CheckTool } from './check-tool.ts';
import { lintLines, namedFiles, typeLines } from './python-lines.ts';

const NOQA = /#\s*(noqa|ruff\s*:\s*noqa|flake8\s*:\s*noqa)/i;
const RUFF_REFORMAT = /^Would reformat:?\s+(\S.*)$/;
const REFORMATTED = 'not formatted as the formatter formats it';

export const ruffTool: CheckTool = {
  id: 'ruff',
  startedBy: (command) => namesProgram(command, 'ruff'),
  parse: (output, cwd) => [
    ...lintLines(output, cwd, 'ruff'),
    ...namedFiles(output, cwd, RUFF_REFORMAT, 'ruff', REFORMATTED).map((d): Diagnostic => ({ ...d, rule: 'format' })),
  ],
  fixer: {
    from: 'path',
    program: 'ruff',
    args: (files, diagnostics) =>
      diagnostics.every((d) => d.rule === 'format') ? ['format', '--', ...files] : ['check', '--fix', '--', ...files],
    fromCheck: (command) => {
      if (/\bruff\s+format\b/.test(command))
        return /\s--check\b/.test(command) ? withoutFlags(command, ['--check', '--diff']) : null;
      return /\bruff\s+check\b/.test(command) ? command.replace(/\bruff\s+check\b/, 'ruff check --fix') : null;
    },
  },
  configuration: { files: /(^|\/)\.?ruff\.toml$/, sections: { 'pyproject.toml': /^\[tool\.ruff/ }, packageKeys: [] },
  silencers: NOQA,
};

export const flake8Tool: CheckTool = {
  id: 'flake8',
  startedBy: (command) => namesProgram(command, 'flake8'),
  parse: (output, cwd) => lintLines(output, cwd, 'flake8'),
  fixer: null,
  configuration: { files: /(^|\/)\.flake8$/, sections: { 'setup.cfg': /^\[flake8/, 'tox.ini': /^\[flake8/ }, packageKeys: [] },
  silencers: NOQA,
};

export const pyflakesTool: CheckTool = {
  id: 'pyflakes',
  startedBy: (command) => namesProgram(command, 'pyflakes', 'pyflakes3'),
  parse: (output, cwd) => lintLines(output, cwd, 'pyflakes'),
  fixer: null,
  configuration: { files: /^$/, sections: {}, packageKeys: [] },
  silencers: NOQA,
};

export const mypyTool: CheckTool = {
  id: 'mypy',
  startedBy: (command) => namesProgram(command, 'mypy'),
  parse: (output, cwd) => typeLines(output, cwd, 'mypy'),
  fixer: null,
  configuration: {
    files: /(^|\/)\.?mypy\.ini$/,
    sections: { 'pyproject.toml': /^\[tool\.mypy/, 'setup.cfg': /^\[mypy/ },
    packageKeys: [],
  },
  silencers: /#\s*type:\s*ignore|#\s*mypy:/,
};

export const blackTool: CheckTool = {
  id: 'black',
  startedBy: (command) => namesProgram(command, 'black'),
  parse: (output, cwd) => namedFiles(output, cwd, /^would reformat\s+(\S.*)$/, 'black', REFORMATTED),
  fixer: {
    from: 'path',
    program: 'black',
    args: (files) => ['--', ...files],
    fromCheck: (command) => (/\s--check\b/.test(command) ? withoutFlags(command, ['--check', '--diff']) : null),
  },
  configuration: { files: /^$/, sections: { 'pyproject.toml': /^\[tool\.black/ }, packageKeys: [] },
  silencers: /#\s*fmt:\s*(off|skip)/,
};

export const isortTool: CheckTool = {
  id: 'isort',
  startedBy: (command) => namesProgram(command, 'isort'),
  parse: (output, cwd) =>
    namedFiles(
      output,
      cwd,
      /^ERROR:\s+(\S.*?)\s+Imports are incorrectly sorted/,
      'isort',
      'imports not sorted as isort sorts them',
    ),
  fixer: {
    from: 'path',
    program: 'isort',
    args: (files) => ['--', ...files],
    fromCheck: (command) =>
      /\s(--check-only|--check|-c)\b/.test(command) ? withoutFlags(command, ['--check-only', '--check', '-c', '--diff']) : null,
  },
  configuration: {
    files: /(^|\/)\.isort\.cfg$/,
    sections: { 'pyproject.toml': /^\[tool\.isort/, 'setup.cfg': /^\[(tool:)?isort/, 'tox.ini': /^\[isort/ },
    packageKeys: [],
  },
  silencers: /#\s*isort:\s*(skip|off|skip_file)/,
};
