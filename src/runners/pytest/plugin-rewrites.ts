// pytest rewrites the assertions of every module of its entry-point plugins' distributions
// (hypothesis, pytest-benchmark) as it imports them, and keeps the result beside them
// (`__pycache__/<module>.cpython-311-pytest-9.0.3.pyc`) when it may write bytecode. The sandbox
// writes none and shows the toolchain read-only, so on a toolchain whose own pytest never ran with
// bytecode on, every pytest start fixloop made rewrote them all again: 1.9 s against 1.0 s for a
// one-test run here (docs/benchmarks.md). The operator's own `pytest` writes that cache on its
// first run; fixloop does what that run does, once per interpreter and outside the sandbox, before
// its first pytest command: pytest collects an empty folder with the toolchain's plugins and
// nothing of the repository. Only the operator's toolchain runs there: an interpreter the PATH
// finds, or one named by an absolute path outside the checkout; never a path the repository's
// command names inside it (`.venv/bin/python`), never with the run's configured environment
// (whose PYTHONPATH or PYTEST_ADDOPTS could load the repository's code). The sandbox only ever
// reads the cache, so nothing a test run does can change it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { isUnder } from '../../sandbox/bind-guard.ts';
import { sandboxEnvironment } from '../../sandbox/environment.ts';
import type { ResolveProgram } from '../runner.ts';

/** The interpreter (or pytest script) to start, and what starts pytest with it. */
export interface PytestStart {
  file: string;
  args: string[];
}

const MODULE = /(^|[\s;&|])(\S*python[\d.]*)\s+-m\s+pytest\b/;
const SCRIPT = /(^|[\s;&|])(\S*pytest)(?=[\s;&|]|$)/;
/** Many times a cold toolchain's collection here (1.7 s): it is only a cache, and the first run waits for it. */
const TIMEOUT_MS = 30_000;

const warmed = new Map<string, Promise<void>>();

/**
 * How the operator's toolchain starts the pytest that `command` runs, from `cwd`, with `resolve`
 * giving the file the sandbox's PATH starts for a program name; null when the command names its
 * interpreter inside the checkout (or by a relative path), or the PATH has none.
 */
export function operatorPytest(command: string, cwd: string, resolve: ResolveProgram): PytestStart | null {
  const module = MODULE.exec(command)?.[2];
  const program = module ?? SCRIPT.exec(command)?.[2];
  if (!program) return null;
  const args = module ? ['-m', 'pytest'] : [];
  const file = program.includes('/') ? (isAbsolute(program) ? program : null) : resolve(program);
  return file && !isUnder(file, cwd) ? { file, args } : null;
}

/** Writes pytest's rewritten plugins beside the operator's toolchain, once per interpreter; never fails. */
export function warmPluginRewrites(command: string, cwd: string, resolve: ResolveProgram, signal?: AbortSignal): Promise<void> {
  const start = operatorPytest(command, cwd, resolve);
  if (!start) return Promise.resolve();
  const key = [start.file, ...start.args].join(' ');
  let warming = warmed.get(key);
  if (!warming) {
    // A run stopped meanwhile leaves the cache to the next run's first pytest command.
    warming = writePluginRewrites(start, signal)
      .catch(() => undefined)
      .finally(() => {
        if (signal?.aborted) warmed.delete(key);
      });
    warmed.set(key, warming);
  }
  return warming;
}

/**
 * pytest collecting an empty folder of its own, with its own settings file so none above is read,
 * each time it is called (bench/pytest-plugin-cache.ts makes the cache again after deleting it).
 */
export async function writePluginRewrites(start: PytestStart, signal?: AbortSignal): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-pytest-warm-'));
  try {
    await writeFile(join(dir, 'pytest.ini'), '[pytest]\n');
    // The sandbox's own allow-listed environment, bytecode on: what an ordinary pytest start writes.
    const { PYTHONDONTWRITEBYTECODE: _off, ...env } = sandboxEnvironment({}, dir);
    const args = [
      ...start.args,
      '--collect-only',
      '-q',
      '-p',
      'no:cacheprovider',
      '--noconftest',
      '-c',
      'pytest.ini',
      '--rootdir',
      '.',
      '.',
    ];
    // Exit 5 (nothing collected) is the expected end; any other is a cache not made, which costs time only.
    await new Promise<void>((resolve) => {
      execFile(
        start.file,
        args,
        { cwd: dir, env, timeout: TIMEOUT_MS, maxBuffer: 1024 * 1024, ...(signal ? { signal } : {}) },
        () => resolve(),
      );
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
