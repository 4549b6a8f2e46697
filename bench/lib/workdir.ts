// Writes a bug's files into a fresh temp folder and runs commands there, timed.
import type { RunResult } from '../../src/core/run-result.ts';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { lentNode } from './lent-runners.ts';

export { lentNode };

export function materialize(files: Record<string, string>, label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `fixloop-bench-${label}-`));
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

export interface Timed {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function timed(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
  env: Record<string, string> = {},
): Promise<Timed> {
  return new Promise((resolve) => {
    const started = performance.now();
    // The projects' `node --test` must run on this Node (24), whatever `node` is first on PATH.
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...lentNode(), NO_COLOR: '1', CI: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

export const shell = (command: string, cwd: string, timeoutMs = 120_000) => timed('/bin/sh', ['-c', command], cwd, timeoutMs);

/** The RunResult a `fixloop run --json` printed, or null when it printed none (it crashed). */
export function printedResult(stdout: string): RunResult | null {
  try {
    return JSON.parse(stdout) as RunResult;
  } catch {
    return null;
  }
}
