// `fixloop run --json` on a new repository, as the assessment's end-to-end tests make it: the `script`
// engine playing an engine whose patch is known, or any other arguments. Each repository and its
// artifacts folder are removed by `removeScriptedRuns` (call it in `afterAll`).
import type { RunResult } from '../../src/core/run-result.ts';
import { makeRepo, removeAll } from './git-fixture.ts';
import { runCli } from './run-cli.ts';

const dirs: string[] = [];

export function removeScriptedRuns(): Promise<void> {
  return removeAll(dirs);
}

/** `fixloop run --json` on a new repository of `files`, with `args` after the test command. */
export async function fixloopRun(
  files: Record<string, string>,
  test: string,
  args: string[],
): Promise<{ result: RunResult; code: number | null }> {
  const repo = await makeRepo(files);
  dirs.push(repo, `${repo}-out`);
  const cli = await runCli(['run', repo, '--test', test, ...args, '--json', '--out', `${repo}-out`], { cwd: repo });
  try {
    return { result: JSON.parse(cli.stdout) as RunResult, code: cli.code };
  } catch {
    throw new Error(`fixloop printed no result (exit ${cli.code}): ${cli.stderr.slice(-2000)}`);
  }
}

/** The `script` engine running `script` once. */
export function scriptedRun(
  files: Record<string, string>,
  test: string,
  script: string,
  sandbox = 'process',
): Promise<{ result: RunResult; code: number | null }> {
  return fixloopRun(files, test, ['--engine', 'script', '--script', script, '--max-attempts', '1', '--sandbox', sandbox]);
}
