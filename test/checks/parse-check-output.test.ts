// Each check tool's output read per diagnostic, from the real tools' recorded output
// (test/fixtures/checks/), and which tools a check command runs, through package.json scripts too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkToolById, checkToolsOf, parseCheckOutput } from '../../src/checks/registry.ts';

const recorded = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/checks', name), 'utf8');
const tools = (...ids: string[]) => ids.map((id) => checkToolById(id)!);

describe('parseCheckOutput', () => {
  it("reads ESLint's default output: errors with file, line, column and rule, paths made relative", () => {
    expect(parseCheckOutput(recorded('eslint-stylish.txt'), '/tmp/ck', tools('eslint'))).toEqual([
      {
        tool: 'eslint',
        file: 'src/a.js',
        line: 1,
        column: 7,
        rule: 'no-unused-vars',
        message: "'unused' is assigned a value but never used",
      },
      {
        tool: 'eslint',
        file: 'src/a.js',
        line: 2,
        column: 5,
        rule: 'prefer-const',
        message: "'x' is never reassigned. Use 'const' instead",
      },
      { tool: 'eslint', file: 'src/a.js', line: 2, column: 10, rule: 'semi', message: 'Missing semicolon' },
    ]);
  });

  it("reads ESLint's JSON the same way", () => {
    const diagnostics = parseCheckOutput(recorded('eslint.json'), '/tmp/ck', tools('eslint'));
    expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.rule}`)).toEqual([
      'src/a.js:1:7 no-unused-vars',
      'src/a.js:2:5 prefer-const',
      'src/a.js:2:10 semi',
    ]);
  });

  it('counts ESLint warnings only when there is no error (then they fail the check: --max-warnings)', () => {
    const output = '/r/src/a.js\n  3:1  warning  Unexpected console statement  no-console\n\n✖ 1 problem (0 errors, 1 warning)\n';
    expect(parseCheckOutput(output, '/r', tools('eslint'))).toEqual([
      { tool: 'eslint', file: 'src/a.js', line: 3, column: 1, rule: 'no-console', message: 'Unexpected console statement' },
    ]);
  });

  it("reads standard's lines, its errors only (a warning alone does not fail it), not its own notes", () => {
    expect(parseCheckOutput(recorded('standard.txt'), '/tmp/ck', tools('standard'))).toEqual([
      { tool: 'standard', file: 'src/a.js', line: 1, column: 10, rule: 'semi', message: 'Extra semicolon' },
      {
        tool: 'standard',
        file: 'src/a.js',
        line: 2,
        column: 7,
        rule: 'no-unused-vars',
        message: "'unused' is assigned a value but never used",
      },
      {
        tool: 'standard',
        file: 'src/a.js',
        line: 3,
        column: 13,
        rule: 'space-in-parens',
        message: 'There should be no space after this paren',
      },
      {
        tool: 'standard',
        file: 'src/a.js',
        line: 3,
        column: 15,
        rule: 'space-in-parens',
        message: 'There should be no space before this paren',
      },
    ]);
    expect(parseCheckOutput(recorded('standard-warnings.txt'), '/tmp/ck', tools('standard'))).toEqual([]);
    expect(checkToolsOf('standard && tap')).toEqual(tools('standard'));
  });

  it('reads the files Prettier would reformat, and a file it cannot parse, but not its summary', () => {
    expect(parseCheckOutput(recorded('prettier-check.txt'), '/tmp/ck', tools('prettier'))).toEqual([
      { tool: 'prettier', file: 'src/a.js', message: 'not formatted as Prettier formats it' },
    ]);
    expect(parseCheckOutput(recorded('prettier-syntax-error.txt'), '/tmp/ck', tools('prettier'))).toEqual([
      { tool: 'prettier', file: 'src/bad.js', line: 1, column: 7, message: 'SyntaxError: Unexpected token' },
    ]);
  });

  it("reads tsc's plain and pretty lines alike", () => {
    const expected = [
      {
        tool: 'tsc',
        file: 'src/t.ts',
        line: 1,
        column: 7,
        rule: 'TS2322',
        message: "Type 'string' is not assignable to type 'number'.",
      },
    ];
    expect(parseCheckOutput(recorded('tsc-plain.txt'), '/tmp/ck', tools('tsc'))).toEqual(expected);
    expect(parseCheckOutput(recorded('tsc-pretty.txt'), '/tmp/ck', tools('tsc'))).toEqual(expected);
  });

  it("reads black's and isort's files, and pyflakes' lines", () => {
    expect(parseCheckOutput(recorded('black-check.txt'), '/tmp/ck/py', tools('black')).map((d) => d.file)).toEqual([
      'n.py',
      'm.py',
    ]);
    expect(parseCheckOutput(recorded('isort-check.txt'), '/tmp/ck/py', tools('isort'))).toEqual([
      { tool: 'isort', file: 'm.py', message: 'imports not sorted as isort sorts them' },
    ]);
    expect(parseCheckOutput(recorded('pyflakes.txt'), '/tmp/ck/py', tools('pyflakes'))).toEqual([
      { tool: 'pyflakes', file: 'm.py', line: 1, column: 1, message: "'sys' imported but unused" },
      { tool: 'pyflakes', file: 'm.py', line: 2, column: 1, message: "'os' imported but unused" },
    ]);
  });

  it("reads ruff's concise and full output, flake8's and mypy's lines (their documented formats)", () => {
    const concise = 'src/app.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.\n';
    const full = 'F401 [*] `os` imported but unused\n --> src/app.py:1:8\n  |\n1 | import os\n  |        ^^\n';
    const expected = [
      { tool: 'ruff', file: 'src/app.py', line: 1, column: 8, rule: 'F401', message: '`os` imported but unused' },
    ];
    expect(parseCheckOutput(concise, '/r', tools('ruff'))).toEqual(expected);
    expect(parseCheckOutput(full, '/r', tools('ruff'))).toEqual(expected);
    expect(parseCheckOutput('Would reformat: src/app.py\n1 file would be reformatted\n', '/r', tools('ruff'))).toEqual([
      { tool: 'ruff', file: 'src/app.py', message: 'not formatted as the formatter formats it', rule: 'format' },
    ]);
    expect(parseCheckOutput('./src/app.py:3:80: E501 line too long (88 > 79 characters)\n', '/r', tools('flake8'))).toEqual([
      { tool: 'flake8', file: 'src/app.py', line: 3, column: 80, rule: 'E501', message: 'line too long (88 > 79 characters)' },
    ]);
    expect(
      parseCheckOutput('src/app.py:12: error: Incompatible return value type  [return-value]\n', '/r', tools('mypy')),
    ).toEqual([{ tool: 'mypy', file: 'src/app.py', line: 12, rule: 'return-value', message: 'Incompatible return value type' }]);
  });

  it("reads every tool's format when the command's tools are unknown (a script fixloop cannot follow)", () => {
    const output = `${recorded('eslint-stylish.txt')}\n${recorded('prettier-check.txt')}`;
    const diagnostics = parseCheckOutput(output, '/tmp/ck', []);
    expect(diagnostics.map((d) => d.tool)).toEqual(['eslint', 'eslint', 'eslint', 'prettier']);
  });

  it('reads nothing from output that holds no diagnostic', () => {
    expect(parseCheckOutput('sh: 1: lint: not found\n', '/r', [])).toEqual([]);
  });
});

describe('checkToolsOf', () => {
  const scripts = { lint: 'eslint src && npm run format:check', 'format:check': 'prettier --check .', test: 'node --test' };

  it('names the tools a command runs itself or through npm scripts', () => {
    expect(checkToolsOf('npx eslint src', {}).map((t) => t.id)).toEqual(['eslint']);
    expect(checkToolsOf('npm run lint', scripts).map((t) => t.id)).toEqual(['eslint', 'prettier']);
    expect(checkToolsOf('python -m black --check . && isort --check-only .').map((t) => t.id)).toEqual(['black', 'isort']);
    expect(checkToolsOf('./node_modules/.bin/tsc --noEmit').map((t) => t.id)).toEqual(['tsc']);
  });

  it('names none for a command that runs no tool it knows, nor for a word that only contains a name', () => {
    expect(checkToolsOf('npm test', scripts)).toEqual([]);
    expect(checkToolsOf('vue-tsc --noEmit && blacken-docs README.md')).toEqual([]);
  });
});

describe('each tool turns its check into its fixer', () => {
  it('asks the tool to fix what it checked, with the same files and options', () => {
    const fix = (id: string, command: string) => checkToolById(id)!.fixer?.fromCheck(command) ?? null;
    expect(fix('prettier', 'npx prettier --check src')).toBe('npx prettier --write src');
    expect(fix('eslint', 'npx eslint --max-warnings 0 src')).toBe('npx eslint --fix --max-warnings 0 src');
    expect(fix('black', 'black --check --diff .')).toBe('black .');
    expect(fix('isort', 'isort --check-only src')).toBe('isort src');
    expect(fix('ruff', 'ruff check src')).toBe('ruff check --fix src');
    expect(fix('ruff', 'ruff format --check src')).toBe('ruff format src');
    expect(fix('prettier', 'npx prettier --write src')).toBeNull();
    expect(checkToolById('tsc')!.fixer).toBeNull();
  });
});
