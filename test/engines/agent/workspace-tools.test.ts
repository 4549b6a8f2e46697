// The agent's tools on a real workspace (a temp git repository cloned through createWorkspace, with
// the default path policy): what each tool answers the model, what it refuses, and what reaches disk.
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRepoConfig, DEFAULT_PROTECTED_PATHS } from '../../../src/core/repo-config.ts';
import { AGENT_TOOLS, runTool } from '../../../src/engines/agent/agent-tools.ts';
import type { ToolCall } from '../../../src/engines/agent/chat-model.ts';
import { replaceExactlyOnce } from '../../../src/engines/agent/edit-text.ts';
import type { TestToolContext } from '../../../src/engines/agent/test-tool.ts';
import { emptyReport } from '../../../src/core/test-report.ts';
import { createProcessSandbox } from '../../../src/sandbox/process-sandbox.ts';
import { createWorkspace } from '../../../src/workspace/create-workspace.ts';
import { createPathPolicy, type PathPolicy } from '../../../src/workspace/path-policy.ts';
import type { Workspace } from '../../../src/workspace/workspace.ts';
import { makeRepo, removeAll } from '../../support/git-fixture.ts';

const CART = 'export function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.price;\n  return sum;\n}';
const LONG = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n');
const WIDE = Array.from({ length: 10 }, (_, i) => `${i}`.repeat(10_000)).join('\n');
const NEEDLES = Array.from({ length: 100 }, (_, i) => `  needle ${i + 1}  `).join('\n');

const FILES: Record<string, string> = {
  'README.md': '# Shop\nSee src/cart.js.\n',
  'src/cart.js': CART,
  'src/dup.js': 'x = 1;\nx = 1;\n',
  'src/long.txt': LONG,
  'src/wide.txt': WIDE,
  'src/lib/util.js': 'export const add = (a, b) => a + b; // a.b\n',
  'srcx/other.js': 'item.price\n',
  'needles/many.txt': NEEDLES,
  'test/cart.test.js': "import { total } from '../src/cart.js';\n",
  'bin/data.bin': 'item.price\u0000binary\n',
};

const TOOL_NAMES = 'read_file, list_files, search, write_file, edit_file, run_tests, complete';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

async function workspaceOf(
  files: Record<string, string>,
  policy: PathPolicy = createPathPolicy(defaultRepoConfig().paths),
): Promise<Workspace> {
  const source = await makeRepo(files);
  const tmpRoot = await mkdtemp(join(tmpdir(), 'fixloop-tools-'));
  dirs.push(source, tmpRoot);
  return (await createWorkspace({ source, ref: null, sha: null, tmpRoot, policy })).workspace;
}

function contextOf(workspace: Workspace): TestToolContext {
  return {
    workspace,
    sandbox: createProcessSandbox(),
    config: defaultRepoConfig(),
    lastGate: { passed: true, report: emptyReport(), output: '', durationMs: 0 },
    signal: new AbortController().signal,
    timeLimitMs: () => 60_000,
  };
}

let workspace: Workspace;
let ctx: TestToolContext;
let outside: string;
let calls = 0;
const call = (name: string, input: Record<string, unknown>, extra: Partial<ToolCall> = {}) =>
  runTool({ id: `call_${++calls}`, name, input, ...extra }, ctx);
const onDisk = (path: string) => readFileSync(join(workspace.root, path), 'utf8');

beforeAll(async () => {
  workspace = await workspaceOf(FILES);
  ctx = contextOf(workspace);
  outside = await mkdtemp(join(tmpdir(), 'fixloop-outside-'));
  dirs.push(outside);
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  // Planted after the clone, as a test run or a setup command could.
  symlinkSync(outside, join(workspace.root, 'src', 'escape'));
  symlinkSync(join(outside, 'secret.txt'), join(workspace.root, 'secret-link.txt'));
});

describe('read_file', () => {
  it('reads a whole small file with its line count', async () => {
    expect(await call('read_file', { path: 'src/cart.js' })).toStrictEqual({
      content: `src/cart.js (5 lines):\n${CART}`,
      isError: false,
    });
  });

  it('reads a line range', async () => {
    expect(await call('read_file', { path: 'src/cart.js', start_line: 2, end_line: 3 })).toStrictEqual({
      content: 'src/cart.js (lines 2-3 of 5):\n  let sum = 0;\n  for (const item of items) sum += item.price;',
      isError: false,
    });
    expect(await call('read_file', { path: 'src/cart.js', start_line: 4 })).toStrictEqual({
      content: 'src/cart.js (lines 4-5 of 5):\n  return sum;\n}',
      isError: false,
    });
    expect(await call('read_file', { path: 'src/cart.js', end_line: 1 })).toStrictEqual({
      content: 'src/cart.js (lines 1-1 of 5):\nexport function total(items) {',
      isError: false,
    });
  });

  it('answers at most 800 lines at a time', async () => {
    const first = await call('read_file', { path: 'src/long.txt' });
    const lines = first.content.split('\n');
    expect(lines[0]).toBe('src/long.txt (lines 1-800 of 1000):');
    expect(lines).toHaveLength(801);
    expect(lines.at(-1)).toBe('line 800');
    // An end_line past the cap is cut to it; the rest is read from a later start.
    expect((await call('read_file', { path: 'src/long.txt', start_line: 100, end_line: 2000 })).content.split('\n')[0]).toBe(
      'src/long.txt (lines 100-899 of 1000):',
    );
    const rest = await call('read_file', { path: 'src/long.txt', start_line: 901 });
    expect(rest.content).toBe(`src/long.txt (lines 901-1000 of 1000):\n${LONG.split('\n').slice(900).join('\n')}`);
  });

  it('counts the lines of a file ending in a newline without a phantom last line, and names impossible ranges', async () => {
    expect((await call('read_file', { path: 'src/lib/util.js' })).content).toBe(
      `src/lib/util.js (1 lines):\n${FILES['src/lib/util.js']?.replace(/\n$/, '')}`,
    );
    expect(await call('read_file', { path: 'src/lib/util.js', start_line: 5 })).toEqual({
      content: 'src/lib/util.js has 1 lines; start_line 5 is past its end',
      isError: true,
    });
    expect(await call('read_file', { path: 'src/long.txt', start_line: 4, end_line: 2 })).toEqual({
      content: 'src/long.txt: end_line 2 is before start_line 4',
      isError: true,
    });
  });

  it('cuts a long text at 60,000 characters and says so', async () => {
    const answer = await call('read_file', { path: 'src/wide.txt' });
    expect(answer.isError).toBe(false);
    expect(answer.content).toBe(
      `src/wide.txt (10 lines):\n${WIDE.slice(0, 60_000)}\n… (cut at 60000 characters; read a smaller line range)`,
    );
  });

  it('says a missing file does not exist, and a folder is a folder', async () => {
    expect(await call('read_file', { path: 'src/nope.js' })).toStrictEqual({
      content: 'src/nope.js does not exist; use list_files or search to find the right path',
      isError: true,
    });
    expect(await call('read_file', { path: 'src/lib' })).toStrictEqual({
      content: 'src/lib is a folder; use list_files',
      isError: true,
    });
  });

  it('refuses `..`, absolute paths and .git', async () => {
    expect(await call('read_file', { path: '../secret.txt' })).toStrictEqual({
      content: 'refused: `../secret.txt` is a path with `..`',
      isError: true,
    });
    expect(await call('read_file', { path: 'src/../../x' })).toStrictEqual({
      content: 'refused: `src/../../x` is a path with `..`',
      isError: true,
    });
    expect(await call('read_file', { path: '/etc/passwd' })).toStrictEqual({
      content: 'refused: `/etc/passwd` is an absolute path',
      isError: true,
    });
    expect(await call('read_file', { path: '.git/config' })).toStrictEqual({
      content: 'refused: `.git/config` is a path inside .git',
      isError: true,
    });
  });

  it('refuses a path that leads outside through a symlink (a folder or a file)', async () => {
    expect(await call('read_file', { path: 'src/escape/secret.txt' })).toStrictEqual({
      content: 'refused: `src/escape/secret.txt` leads outside the repository through a symlink',
      isError: true,
    });
    expect(await call('read_file', { path: 'secret-link.txt' })).toStrictEqual({
      content: 'refused: `secret-link.txt` leads outside the repository through a symlink',
      isError: true,
    });
  });

  it('names a wrong argument', async () => {
    expect(await call('read_file', { path: 3 })).toStrictEqual({ content: 'read_file: `path` must be a string', isError: true });
    expect(await call('read_file', {})).toStrictEqual({ content: 'read_file: missing `path`', isError: true });
    expect(await call('read_file', { path: '' })).toStrictEqual({
      content: 'read_file: `path` must not be empty',
      isError: true,
    });
    for (const start of [0, -1, 1.5, '2']) {
      expect(await call('read_file', { path: 'src/cart.js', start_line: start })).toStrictEqual({
        content: 'read_file: `start_line` must be a positive integer',
        isError: true,
      });
    }
    expect(await call('read_file', { path: 'src/cart.js', end_line: 0 })).toStrictEqual({
      content: 'read_file: `end_line` must be a positive integer',
      isError: true,
    });
  });
});

describe('list_files', () => {
  it('lists every repository file, sorted, without .git', async () => {
    const all = (await call('list_files', {})).content.split('\n');
    expect(all).toEqual(
      expect.arrayContaining(['README.md', 'src/cart.js', 'src/lib/util.js', 'srcx/other.js', 'test/cart.test.js']),
    );
    expect(all).toEqual([...all].sort());
    expect(all.filter((f) => f.startsWith('.git/'))).toEqual([]);
  });

  it('lists the files under a folder, whatever its spelling', async () => {
    // The planted symlink is listed as an entry; what it leads to is not.
    const src = 'src/cart.js\nsrc/dup.js\nsrc/escape\nsrc/lib/util.js\nsrc/long.txt\nsrc/wide.txt';
    for (const path of ['src', 'src/', './src', './src/']) {
      expect(await call('list_files', { path }), path).toStrictEqual({ content: src, isError: false });
    }
    expect(await call('list_files', { path: 'src/lib' })).toStrictEqual({ content: 'src/lib/util.js', isError: false });
    expect(await call('list_files', { path: 'src/cart.js' })).toStrictEqual({ content: 'src/cart.js', isError: false });
  });

  it('says when a folder has no files', async () => {
    expect(await call('list_files', { path: 'nowhere' })).toStrictEqual({ content: 'no files under `nowhere`', isError: false });
  });

  it('names a wrong argument', async () => {
    expect(await call('list_files', { path: ['src'] })).toStrictEqual({
      content: 'list_files: `path` must be a string',
      isError: true,
    });
  });

  it('shows at most 400 files and says how many more', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 410; i++) many[`many/f${String(i).padStart(3, '0')}.txt`] = `${i}\n`;
    const big = await workspaceOf(many);
    const answer = await runTool({ id: 'call_many', name: 'list_files', input: { path: 'many' } }, contextOf(big));
    const lines = answer.content.split('\n');
    expect(lines).toHaveLength(401);
    expect(lines[399]).toBe('many/f399.txt');
    expect(lines[400]).toBe('… 10 more; list a sub-folder');
  });
});

describe('search', () => {
  it('matches a literal pattern: regex characters mean themselves', async () => {
    expect(await call('search', { pattern: 'a.b' })).toStrictEqual({
      content: 'src/lib/util.js:1: export const add = (a, b) => a + b; // a.b',
      isError: false,
    });
    expect(await call('search', { pattern: '(a, b)' })).toStrictEqual({
      content: 'src/lib/util.js:1: export const add = (a, b) => a + b; // a.b',
      isError: false,
    });
  });

  it('matches a regular expression with regex: true', async () => {
    expect(await call('search', { pattern: 'sum \\+?= ', regex: true })).toStrictEqual({
      content: 'src/cart.js:2: let sum = 0;\nsrc/cart.js:3: for (const item of items) sum += item.price;',
      isError: false,
    });
    // Only `true` turns regex on.
    expect(await call('search', { pattern: 'sum \\+?= ', regex: 'true' })).toStrictEqual({
      content: 'no match for `sum \\+?= `',
      isError: false,
    });
  });

  it('searches under a folder only (not a folder that merely starts the same), skipping binary files', async () => {
    expect(await call('search', { pattern: 'item.price' })).toStrictEqual({
      content: 'src/cart.js:3: for (const item of items) sum += item.price;\nsrcx/other.js:1: item.price',
      isError: false,
    });
    expect(await call('search', { pattern: 'item.price', path: 'src' })).toStrictEqual({
      content: 'src/cart.js:3: for (const item of items) sum += item.price;',
      isError: false,
    });
    expect(await call('search', { pattern: 'item.price', path: 'src/' })).toStrictEqual({
      content: 'src/cart.js:3: for (const item of items) sum += item.price;',
      isError: false,
    });
  });

  it('says when nothing matches', async () => {
    expect(await call('search', { pattern: 'no such text' })).toStrictEqual({
      content: 'no match for `no such text`',
      isError: false,
    });
    // The file behind a symlink leading outside is not searched.
    expect(await call('search', { pattern: 'secret' })).toStrictEqual({ content: 'no match for `secret`', isError: false });
  });

  it('names an invalid regular expression', async () => {
    expect(await call('search', { pattern: '(unclosed', regex: true })).toStrictEqual({
      content: 'search: `pattern` is not a valid regular expression: Invalid regular expression: /(unclosed/: Unterminated group',
      isError: true,
    });
  });

  it('answers at most 80 matches and counts the others', async () => {
    const answer = await call('search', { pattern: 'needle', path: 'needles' });
    const lines = answer.content.split('\n');
    expect(lines).toHaveLength(81);
    expect(lines[0]).toBe('needles/many.txt:1: needle 1');
    expect(lines[79]).toBe('needles/many.txt:80: needle 80');
    expect(lines[80]).toBe('… 20 more matches; narrow the pattern or the path');
  });

  it('names a missing or wrong pattern', async () => {
    expect(await call('search', {})).toStrictEqual({ content: 'search: missing `pattern`', isError: true });
    expect(await call('search', { pattern: 7 })).toStrictEqual({ content: 'search: `pattern` must be a string', isError: true });
  });
});

describe('write_file', () => {
  it('writes an allowed path, creating folders', async () => {
    expect(
      await call('write_file', { path: 'src/new/money.js', content: 'export const cents = 100;\nexport const euro = 1;' }),
    ).toStrictEqual({
      content: 'wrote src/new/money.js (2 lines)',
      isError: false,
    });
    expect(onDisk('src/new/money.js')).toBe('export const cents = 100;\nexport const euro = 1;');
    const empty = await call('write_file', { path: 'src/empty.js', content: '' });
    expect(empty.isError).toBe(false);
    expect(empty.content).toMatch(/^wrote src\/empty\.js \(/);
    expect(onDisk('src/empty.js')).toBe('');
  });

  it('refuses a protected test file, tells the model why, and records the refusal', async () => {
    expect(await call('write_file', { path: 'test/cart.test.js', content: 'weakened' })).toStrictEqual({
      content:
        'refused: `test/cart.test.js` is protected (paths.protected). You may not change this file; change the code under test instead.',
      isError: true,
      refused: 'test/cart.test.js: `test/cart.test.js` is protected (paths.protected)',
    });
    expect(onDisk('test/cart.test.js')).toBe(FILES['test/cart.test.js']);
    expect((await call('write_file', { path: '.github/workflows/ci.yml', content: 'x' })).refused).toBe(
      '.github/workflows/ci.yml: `.github/workflows/ci.yml` is protected (paths.protected)',
    );
  });

  it('refuses `..` and a write through a symlink leading outside', async () => {
    expect(await call('write_file', { path: '../pwned.js', content: 'x' })).toStrictEqual({
      content: 'refused: `../pwned.js` is a path with `..`. You may not change this file; change the code under test instead.',
      isError: true,
      refused: '../pwned.js: `../pwned.js` is a path with `..`',
    });
    expect((await call('write_file', { path: 'src/escape/pwned.js', content: 'x' })).refused).toBe(
      'src/escape/pwned.js: `src/escape/pwned.js` leads outside the repository through a symlink',
    );
    expect(() => readFileSync(join(outside, 'pwned.js'))).toThrow(/ENOENT/);
  });

  it('refuses a path outside paths.allowed', async () => {
    const narrow = await workspaceOf(
      { 'src/a.js': 'a\n', 'README.md': 'r\n' },
      createPathPolicy({ allowed: ['src/**'], protected: DEFAULT_PROTECTED_PATHS }),
    );
    const answer = await runTool(
      { id: 'call_narrow', name: 'write_file', input: { path: 'README.md', content: 'x' } },
      contextOf(narrow),
    );
    expect(answer).toStrictEqual({
      content:
        'refused: `README.md` is outside the allowed paths (paths.allowed). You may not change this file; change the code under test instead.',
      isError: true,
      refused: 'README.md: `README.md` is outside the allowed paths (paths.allowed)',
    });
  });

  it('names a wrong argument', async () => {
    expect(await call('write_file', { path: 'src/x.js' })).toStrictEqual({
      content: 'write_file: missing `content`',
      isError: true,
    });
    expect(await call('write_file', { path: 'src/x.js', content: 5 })).toStrictEqual({
      content: 'write_file: `content` must be a string',
      isError: true,
    });
    expect(await call('write_file', { path: 3, content: 'x' })).toStrictEqual({
      content: 'write_file: `path` must be a string',
      isError: true,
    });
  });
});

describe('edit_file', () => {
  it('replaces a unique old text, literally', async () => {
    expect(
      await call('edit_file', {
        path: 'src/cart.js',
        old_text: 'sum += item.price;',
        new_text: 'sum += item.price * item.quantity; // $& $1',
      }),
    ).toStrictEqual({
      content: 'edited src/cart.js',
      isError: false,
    });
    expect(onDisk('src/cart.js')).toBe(CART.replace('sum += item.price;', () => 'sum += item.price * item.quantity; // $& $1'));
  });

  it('refuses an old text that is not found, without writing', async () => {
    expect(await call('edit_file', { path: 'src/dup.js', old_text: 'y = 2;', new_text: 'y = 3;' })).toStrictEqual({
      content:
        'edit_file src/dup.js refused: old_text was not found in the file (it must match exactly, whitespace included); read the file again',
      isError: true,
    });
  });

  it('refuses an old text that occurs more than once, without writing', async () => {
    expect(await call('edit_file', { path: 'src/dup.js', old_text: 'x = 1;', new_text: 'x = 2;' })).toStrictEqual({
      content: 'edit_file src/dup.js refused: old_text occurs 2 times; include more surrounding lines so it is unique',
      isError: true,
    });
    expect(onDisk('src/dup.js')).toBe(FILES['src/dup.js']);
  });

  it('refuses an empty old text', async () => {
    expect(await call('edit_file', { path: 'src/dup.js', old_text: '', new_text: 'x' })).toStrictEqual({
      content: 'edit_file src/dup.js refused: old_text is empty; use write_file to create a file',
      isError: true,
    });
  });

  it('refuses an edit of a protected test and a missing file', async () => {
    expect(await call('edit_file', { path: 'test/cart.test.js', old_text: 'total', new_text: 'sum' })).toStrictEqual({
      content:
        'refused: `test/cart.test.js` is protected (paths.protected). You may not change this file; change the code under test instead.',
      isError: true,
      refused: 'test/cart.test.js: `test/cart.test.js` is protected (paths.protected)',
    });
    expect(onDisk('test/cart.test.js')).toBe(FILES['test/cart.test.js']);
    expect(await call('edit_file', { path: 'src/gone.js', old_text: 'a', new_text: 'b' })).toStrictEqual({
      content: 'src/gone.js does not exist; use list_files or search to find the right path',
      isError: true,
    });
  });

  it('names a wrong argument', async () => {
    expect(await call('edit_file', { path: 'src/dup.js', old_text: 'x = 1;' })).toStrictEqual({
      content: 'edit_file: missing `new_text`',
      isError: true,
    });
    expect(await call('edit_file', { path: 'src/dup.js', old_text: 1, new_text: 'x' })).toStrictEqual({
      content: 'edit_file: `old_text` must be a string',
      isError: true,
    });
  });
});

describe('replaceExactlyOnce', () => {
  it('replaces the one occurrence and counts overlapping ones', () => {
    expect(replaceExactlyOnce('a-b-c', '-b-', '+')).toStrictEqual({ ok: true, content: 'a+c' });
    expect(replaceExactlyOnce('aaa', 'aa', 'b')).toStrictEqual({
      ok: false,
      reason: 'old_text occurs 2 times; include more surrounding lines so it is unique',
    });
    expect(replaceExactlyOnce('abc', 'abc', '')).toStrictEqual({ ok: true, content: '' });
    expect(replaceExactlyOnce('a b', 'a  b', 'x')).toStrictEqual({
      ok: false,
      reason: 'old_text was not found in the file (it must match exactly, whitespace included); read the file again',
    });
  });
});

describe('complete, unknown tools and bad input', () => {
  it('ends the attempt with the summary', async () => {
    expect(await call('complete', { summary: '  multiply by the quantity ' })).toStrictEqual({
      content: 'fixloop will now run the full test suite and verify the patch.',
      isError: false,
      completed: 'multiply by the quantity',
    });
    expect((await call('complete', {})).completed).toBe('completed');
    expect((await call('complete', { summary: '   ' })).completed).toBe('completed');
    expect((await call('complete', { summary: 42 })).completed).toBe('completed');
  });

  it('names an unknown tool and the tools there are', async () => {
    expect(await call('delete_file', { path: 'src/cart.js' })).toStrictEqual({
      content: `unknown tool \`delete_file\`; the tools are: ${TOOL_NAMES}`,
      isError: true,
    });
    expect(AGENT_TOOLS.map((t) => t.name).join(', ')).toBe(TOOL_NAMES);
  });

  it('does not run a tool whose arguments were not an object', async () => {
    expect(
      await call('write_file', { path: 'src/bad.js', content: 'x' }, { inputError: 'the arguments were not valid JSON' }),
    ).toStrictEqual({
      content: 'write_file: the arguments were not valid JSON',
      isError: true,
    });
    expect(() => onDisk('src/bad.js')).toThrow(/ENOENT/);
  });
});
