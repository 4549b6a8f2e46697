import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { SandboxError } from '../../src/sandbox/sandbox-error.ts';

const sandbox = createProcessSandbox();
let cwd = '';
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'fixloop-sandbox-'));
});
afterAll(() => rm(cwd, { recursive: true, force: true }));

const alive = (marker: string) =>
  execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker) && !l.includes('ps -eo'));

describe('process sandbox', () => {
  it('reports exit codes, and 127 for a missing command', async () => {
    expect((await sandbox.run({ command: 'exit 3', cwd, timeoutMs: 10_000 })).exitCode).toBe(3);
    const missing = await sandbox.run({ command: 'no-such-command-xyz', cwd, timeoutMs: 10_000 });
    expect(missing.exitCode).toBe(127);
  });

  it('gives the command only the allow-listed environment and a throw-away HOME', async () => {
    process.env.FIXLOOP_TEST_SECRET = 'do-not-leak';
    try {
      const result = await sandbox.run({ command: 'env; echo "home=$HOME"', cwd, timeoutMs: 10_000, env: { EXTRA: 'yes' } });
      expect(result.output).not.toContain('do-not-leak');
      expect(result.output).toContain('EXTRA=yes');
      expect(result.output).toContain('CI=true');
      const home = /home=(.+)/.exec(result.output)?.[1] ?? '';
      expect(home).toMatch(/fixloop-home-/);
      expect(existsSync(home)).toBe(false);
    } finally {
      delete process.env.FIXLOOP_TEST_SECRET;
    }
  });

  it('points TMPDIR at a kept folder when given one, HOME still a throw-away one', async () => {
    const kept = await mkdtemp(join(tmpdir(), 'fixloop-kept-tmp-'));
    try {
      const result = await sandbox.run({
        command: 'echo "tmp=$TMPDIR"; echo "home=$HOME"',
        cwd,
        timeoutMs: 10_000,
        tmpDir: kept,
      });
      expect(result.output).toContain(`tmp=${kept}`);
      expect(/home=(.+)/.exec(result.output)?.[1]).toMatch(/fixloop-home-/);
    } finally {
      await rm(kept, { recursive: true, force: true });
    }
  });

  it('kills the whole process tree on timeout', async () => {
    const marker = `${700_000 + Math.floor(Math.random() * 99_999)}`;
    const result = await sandbox.run({ command: `sleep ${marker} & sleep ${marker}1 & wait`, cwd, timeoutMs: 500 });
    expect(result).toMatchObject({ timedOut: true, killed: true });
    expect(alive(`sleep ${marker}`)).toEqual([]);
  });

  it('stops on abort', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await sandbox.run({ command: 'sleep 30', cwd, timeoutMs: 60_000, signal: controller.signal });
    expect(result).toMatchObject({ killed: true, timedOut: false });
  });

  it('does not let a background daemon outlive the command', async () => {
    const marker = `${800_000 + Math.floor(Math.random() * 99_999)}`;
    const result = await sandbox.run({ command: `(sleep ${marker} &) ; echo started`, cwd, timeoutMs: 10_000 });
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain('started');
    expect(alive(`sleep ${marker}`)).toEqual([]);
  });

  it('caps a flood of output, keeping head and tail, in bounded memory', async () => {
    const result = await sandbox.run({
      command: "echo FIRST; head -c 50000000 /dev/zero | tr '\\0' x; echo; echo LAST",
      cwd,
      timeoutMs: 60_000,
      maxOutputBytes: 64 * 1024,
      killOutputBytes: 100_000_000,
    });
    expect(result.output.length).toBeLessThan(70 * 1024);
    expect(result.output.startsWith('FIRST')).toBe(true);
    expect(result.output.trimEnd().endsWith('LAST')).toBe(true);
    expect(result.truncatedBytes).toBeGreaterThan(49_000_000);
    expect(result.output).toMatch(/\[fixloop: \d+ bytes of output dropped\]/);
  });

  it('refuses a working directory that does not exist', async () => {
    await expect(sandbox.run({ command: 'true', cwd: join(cwd, 'missing'), timeoutMs: 1000 })).rejects.toBeInstanceOf(
      SandboxError,
    );
  });
});

describe('the output limit', () => {
  it('stops a command that prints far more than the cap, and says so', async () => {
    const started = Date.now();
    const result = await createProcessSandbox().run({
      command: 'yes flood',
      cwd: process.cwd(),
      timeoutMs: 60_000,
      maxOutputBytes: 10_000,
      killOutputBytes: 1_000_000,
    });
    expect(result.outputExceeded).toBe(true);
    expect(result.killed).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.output).toContain('printed more than 1000000 bytes and was stopped');
    expect(result.output.length).toBeLessThan(20_000);
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});

describe('Python bytecode', () => {
  it('never runs a stale cached compile of a file rewritten with the same size in the same second', async () => {
    const { writeFile: write } = await import('node:fs/promises');
    const dir = await mkdtemp(join(tmpdir(), 'fixloop-pyc-'));
    try {
      const run = () =>
        createProcessSandbox().run({ command: 'python3 -c "import m; print(m.f())"', cwd: dir, timeoutMs: 20_000 });
      await write(join(dir, 'm.py'), 'def f():\n    return "upper"\n');
      expect((await run()).output.trim()).toBe('upper');
      // Same size, same second: CPython's own cache check (mtime in seconds, size) cannot tell.
      await write(join(dir, 'm.py'), 'def f():\n    return "lower"\n');
      expect((await run()).output.trim()).toBe('lower');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('loads the bytecode installed beside a module outside the workspace, and writes none into the workspace', async () => {
    const { writeFile: write } = await import('node:fs/promises');
    const dir = await mkdtemp(join(tmpdir(), 'fixloop-pyc-'));
    const lib = await mkdtemp(join(tmpdir(), 'fixloop-pylib-'));
    try {
      // An installed module, compiled as pip and Python's installers leave it.
      await write(join(lib, 'installed_mod.py'), 'VALUE = 1\n');
      execFileSync('python3', ['-m', 'py_compile', join(lib, 'installed_mod.py')]);
      await write(join(dir, 'm.py'), 'def f():\n    return "m"\n');
      const result = await createProcessSandbox().run({
        command: 'python3 -v -c "import installed_mod, m"',
        cwd: dir,
        timeoutMs: 20_000,
        env: { PYTHONPATH: lib },
      });
      expect(result.exitCode, result.output).toBe(0);
      // Read, not compiled again (a throw-away cache prefix made every start compile every module).
      expect(result.output).toMatch(new RegExp(`code object from '${lib}/__pycache__/installed_mod\\.cpython-\\d+\\.pyc'`));
      expect(existsSync(join(dir, '__pycache__'))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(lib, { recursive: true, force: true });
    }
  });
});
