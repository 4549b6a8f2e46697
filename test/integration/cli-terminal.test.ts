// `fixloop run` on a terminal: the real CLI through a pseudo-terminal (util-linux `script`), as a
// person at a shell sees it. The report is text (no `<details>`, no Markdown), a still failing test
// shows the values its assertion expected and got, an error is said once, colour follows NO_COLOR;
// and with stdout piped the report stays the Markdown that --out and the App write.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo, removeAll } from '../support/git-fixture.ts';
import { FIXLOOP_BIN, runCli } from '../support/run-cli.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const PROJECT = {
  'package.json': '{ "name": "calc", "type": "module", "private": true }\n',
  'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  'test/math.test.js': [
    "import assert from 'node:assert';",
    "import { test } from 'node:test';",
    "import { add } from '../src/math.js';",
    "test('add sums two numbers', () => { assert.strictEqual(add(2, 3), 5); });",
    "test('add says it in words', () => { assert.strictEqual(`sum ${add(2, 2)}`, 'sum 4'); });",
    '',
  ].join('\n'),
};

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** The CLI on a pseudo-terminal: what the terminal showed (stdout and stderr as one screen), and the exit code. */
function onTerminal(
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined> },
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, FIXLOOP_BIN, ...args].map(quote).join(' ');
  // A user's terminal: Node gives no colour where CI is set (CI's own runs).
  const env = {
    ...process.env,
    FORCE_COLOR: undefined,
    NO_COLOR: undefined,
    CI: undefined,
    TERM: 'xterm-256color',
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let screen = '';
    child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
    child.stderr.on('data', (d: Buffer) => (screen += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, screen: screen.replace(/\r\n/g, '\n') }));
  });
}

async function tempDir(files: Record<string, string> = {}): Promise<string> {
  const dir = await makeRepo(files);
  dirs.push(dir);
  return dir;
}

describe('fixloop run on a terminal', () => {
  it('prints a text report whose still failing tests show what they expected and got, without colour under NO_COLOR', async () => {
    const repo = await tempDir(PROJECT);
    const cwd = await tempDir();
    const { code, screen } = await onTerminal(
      [
        'run',
        repo,
        '--test',
        'node --test',
        '--engine',
        'script',
        '--script',
        'true',
        '--max-attempts',
        '1',
        '--out',
        join(cwd, 'out'),
      ],
      { cwd, env: { NO_COLOR: '1' } },
    );
    expect(code).toBe(1);
    expect(screen).toContain('fixloop: ❌ Not fixed');
    expect(screen).not.toMatch(/<details>|<summary>|\| --- |^#{2,4} /m);
    expect(screen).toContain(
      '- add sums two numbers: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n    expected 5, got -1\n',
    );
    expect(screen).toContain("    expected 'sum 4', got 'sum 0'\n");
    expect(screen).not.toContain('\x1b[1m');
  }, 240_000);

  it("counts the repair engine's candidates on one line rewritten in place", async () => {
    // The assessment after the green patch is not what is watched here (assessment.test.ts's is).
    const repo = await tempDir({ ...PROJECT, 'fixloop.yml': 'assessment:\n  enabled: false\n' });
    const cwd = await tempDir();
    const { screen } = await onTerminal(
      ['run', repo, '--test', 'node --test', '--engine', 'repair', '--max-attempts', '1', '--out', join(cwd, 'out')],
      { cwd, env: { NO_COLOR: '1' } },
    );
    const counts = screen.split('\r\x1b[K').filter((part) => /│ repair: candidate \d+\/\d+, \d+ plausible/.test(part));
    expect(counts.length).toBeGreaterThan(0);
    // Each count is written over the last one: none ends its line.
    for (const part of counts.slice(0, -1)) expect(part).not.toContain('\n');
  }, 300_000);

  it('says an error once, with its cause, in colour on a terminal that has it', async () => {
    const repo = await tempDir(PROJECT);
    const cwd = await tempDir();
    const { code, screen } = await onTerminal(['run', repo, '--test', 'no-such-cmd', '--out', join(cwd, 'out')], {
      cwd,
      env: {},
    });
    expect(code).not.toBe(0);
    expect(screen.match(/was not found/g)).toHaveLength(1);
    expect(screen).toContain('fixloop: \x1b[1m\x1b[31m💥 Error');
    expect(screen).not.toContain('<details>');
  }, 240_000);

  it('with stdout piped, writes the Markdown report, and the error on stderr for the person watching', async () => {
    const repo = await tempDir(PROJECT);
    const cwd = await tempDir();
    const run = await runCli(['run', repo, '--test', 'no-such-cmd', '--out', join(cwd, 'out')], { cwd });
    expect(run.stdout).toContain('<details><summary>Run details</summary>');
    expect(run.stdout).not.toContain('\x1b[');
    expect(run.stderr).toMatch(/^fixloop: the test command `no-such-cmd` failed/m);
  }, 240_000);
});
