// The output of a real test run that is expected to fail (stdout then stderr), for the parsers and
// the localization tests that start from what a runner printed.
import { execFileSync } from 'node:child_process';

export function failingRunOutput(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', ...env },
    });
  } catch (error) {
    return `${(error as { stdout: string }).stdout}${(error as { stderr: string }).stderr}`;
  }
  throw new Error(`\`${command} ${args.join(' ')}\` passed in ${cwd}: the test expects a failing run`);
}
