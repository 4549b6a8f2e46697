// Runs the real `fixloop` command in a child process, as a user would.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const FIXLOOP_BIN = fileURLToPath(new URL('../../bin/fixloop.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `exactEnv`: `env` alone, without this process's environment. */
export function runCli(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; node?: string; exactEnv?: boolean },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, [FIXLOOP_BIN, ...args], {
      cwd: options.cwd,
      env: options.exactEnv ? { ...options.env } : { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
