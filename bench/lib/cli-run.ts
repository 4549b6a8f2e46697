// A benchmark's repository and its `fixloop run`, as a user makes and runs them: a git repository in
// a temp folder, and the real command line in a child process, its result read from `--json`.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { RunResult } from '../../src/core/run-result.ts';

const run = promisify(execFile);
const FIXLOOP = resolve(import.meta.dirname, '..', '..', 'bin', 'fixloop.js');
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/** The files, committed in a new git repository under a temp folder. */
export async function repositoryOf(files: Record<string, string>, prefix = 'fixloop-bench-'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const git = (...a: string[]) =>
    run('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@invalid', ...a], { cwd: dir, env: GIT_ENV });
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-qm', 'the repository');
  return dir;
}

export interface CliRun {
  /** Null when the command printed no JSON result. */
  result: RunResult | null;
  exitCode: number;
  seconds: number;
  /** The start of what it printed, when there was no result. */
  said: string;
}

/** `fixloop run <repository> <args> --json --out <out>`, with `env` added to this process's environment. */
export async function fixloopRun(
  repository: string,
  args: string[],
  out: string,
  env: Record<string, string> = {},
): Promise<CliRun> {
  const started = performance.now();
  const ran = await run(process.execPath, [FIXLOOP, 'run', repository, ...args, '--json', '--out', out], {
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  }).then(
    ({ stdout }) => ({ stdout, exitCode: 0 }),
    (error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? '', exitCode: error.code ?? -1 }),
  );
  const seconds = (performance.now() - started) / 1000;
  try {
    return { result: JSON.parse(ran.stdout) as RunResult, exitCode: ran.exitCode, seconds, said: '' };
  } catch {
    return { result: null, exitCode: ran.exitCode, seconds, said: ran.stdout.slice(0, 200) };
  }
}
