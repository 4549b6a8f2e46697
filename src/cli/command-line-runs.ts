// The runs `fixloop run` made: each leaves `.fixloop/runs/<run-id>/` (result.json, report.md) in the
// folder it ran from, and no record in the App's store. `fixloop runs` lists them beside the App's.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '../core/run-result.ts';
import { statusWithLevel } from './assessment-line.ts';

export interface CommandLineRun {
  dir: string;
  result: RunResult;
}

/** The runs under `<dataDir>/runs/`, newest first; folders without a readable result.json are skipped. */
export async function commandLineRuns(dataDir: string, limit: number): Promise<CommandLineRun[]> {
  const root = join(dataDir, 'runs');
  const names = await readdir(root).catch(() => [] as string[]);
  const runs: CommandLineRun[] = [];
  for (const name of names) {
    const run = await commandLineRun(dataDir, name);
    if (run) runs.push(run);
  }
  return runs.sort((a, b) => (a.result.startedAt < b.result.startedAt ? 1 : -1)).slice(0, limit);
}

export async function commandLineRun(dataDir: string, runId: string): Promise<CommandLineRun | null> {
  if (!/^[\w.-]+$/.test(runId)) return null;
  const dir = join(dataDir, 'runs', runId);
  try {
    const result = JSON.parse(await readFile(join(dir, 'result.json'), 'utf8')) as RunResult;
    return typeof result.runId === 'string' && typeof result.status === 'string' ? { dir, result } : null;
  } catch {
    return null;
  }
}

export function commandLineRunsTable(runs: readonly CommandLineRun[]): string {
  const rows = runs.map(({ result }) => [result.runId, runStatus(result), result.repository.source, result.startedAt.replace('T', ' ').slice(0, 19), result.headline.slice(0, 70)]);
  const header = ['RUN', 'STATUS', 'REPOSITORY', 'STARTED (UTC)', 'HEADLINE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const lines = [header, ...rows].map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '));
  return `\nCommand-line runs (${runs.length}):\n${lines.join('\n')}\n`;
}

/** `cancelled` for a run stopped by a signal or its caller, else the status with the level. */
export function runStatus(result: RunResult): string {
  return result.stopReason === 'cancelled' ? 'cancelled' : statusWithLevel(result);
}
