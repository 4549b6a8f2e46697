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

/**
 * The repository's fixloop.yml with `loop.flakyReruns: 1`: the baseline's failing tests run again
 * once, not three times, to tell them from flaky ones (each rerun is a second of CPU on CI's 2 cores,
 * several per run). The check still runs; no case of the end-to-end suites is about how many times
 * (test/gate/flaky-tests.test.ts and cli-flaky.test.ts are). A fixloop.yml that sets `loop:` is kept.
 */
export function withOneRerun(files: Record<string, string>): Record<string, string> {
  const yml = files['fixloop.yml'] ?? '';
  // A configuration read from elsewhere (fixloop.yml would come first) or that sets `loop:` is the case's own.
  if (/^loop:/m.test(yml) || '.fixloop.yml' in files || '.github/fixloop.yml' in files) return files;
  return { ...files, 'fixloop.yml': `${yml}${yml === '' || yml.endsWith('\n') ? '' : '\n'}loop:\n  flakyReruns: 1\n` };
}

/** `fixloop run --json` on a new repository of `files`, with `args` after the test command. */
export async function fixloopRun(
  files: Record<string, string>,
  test: string,
  args: string[],
): Promise<{ result: RunResult; code: number | null }> {
  const repo = await makeRepo(withOneRerun(files));
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
