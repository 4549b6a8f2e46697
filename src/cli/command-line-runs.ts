// The runs `fixloop run` made, kept in fixloop's data folder (src/core/data-dir.ts), never in the
// repository: `<data>/cli-runs/<repository>/<run-id>/` (result.json, report.md, the logs), one
// folder per repository, named after it and its key (src/core/repository-key.ts), with the
// repository's path or URL in its `repository` file. Runs an older fixloop kept in `<data>/runs/`
// are still read. `fixloop runs` lists them beside the App's.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import type { RunResult } from '../core/run-result.ts';
import { repositoryKey } from '../core/repository-key.ts';
import { statusWithLevel } from './assessment-line.ts';

export interface CommandLineRun {
  dir: string;
  result: RunResult;
  /** The repository's path (the top of its git work tree) or URL; null for a run kept the old way. */
  repository: string | null;
}

const RUNS = 'cli-runs';
const LEGACY_RUNS = 'runs';

/**
 * What a folder or URL is the repository of: a URL as it is; a folder inside a git work tree, the top
 * of that tree (so a run on a subfolder is listed from anywhere in the repository); else the folder.
 */
export async function repositoryOf(source: string, local: boolean): Promise<string> {
  if (!local) return source;
  const folder = resolve(source);
  const top = await promisify(execFile)('git', ['rev-parse', '--show-toplevel'], { cwd: folder }).then(
    ({ stdout }) => stdout.trim(),
    () => '',
  );
  return top || folder;
}

/** The folder that holds the runs of `repository` (made, with its `repository` file): `fixloop run`'s artifacts root. */
export async function commandLineRunsRoot(dataDir: string, repository: string): Promise<string> {
  const key = repositoryKey(repository);
  const name =
    basename(key)
      .replace(/[^\w.-]+/g, '_')
      .slice(0, 40) || 'repository';
  const root = join(dataDir, RUNS, `${name}-${createHash('sha256').update(key).digest('hex').slice(0, 10)}`);
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'repository'), `${repository}\n`);
  return root;
}

/** Every kept run, newest first; folders without a readable result.json are skipped. */
export async function commandLineRuns(dataDir: string): Promise<CommandLineRun[]> {
  const runs: CommandLineRun[] = [];
  for (const { folder, repository } of await runFolders(dataDir)) {
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      const run = await readRun(join(folder, name), repository);
      if (run) runs.push(run);
    }
  }
  return runs.sort((a, b) => (a.result.startedAt < b.result.startedAt ? 1 : -1));
}

/** The runs of the repository `here` is in, or of repositories below `here`; all of them when there are none. */
export function runsFrom(runs: readonly CommandLineRun[], here: string): CommandLineRun[] {
  const mine = runs.filter(
    (r) => r.repository !== null && (r.repository === here || r.repository.startsWith(here.endsWith(sep) ? here : here + sep)),
  );
  return mine.length > 0 ? mine : [...runs];
}

export async function commandLineRun(dataDir: string, runId: string): Promise<CommandLineRun | null> {
  if (!/^[\w.-]+$/.test(runId)) return null;
  for (const { folder, repository } of await runFolders(dataDir)) {
    const run = await readRun(join(folder, runId), repository);
    if (run) return run;
  }
  return null;
}

/** The folders runs are kept in: one per repository, and the old flat one. */
async function runFolders(dataDir: string): Promise<Array<{ folder: string; repository: string | null }>> {
  const root = join(dataDir, RUNS);
  const folders: Array<{ folder: string; repository: string | null }> = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const repository = await readFile(join(root, name, 'repository'), 'utf8').catch(() => null);
    if (repository !== null) folders.push({ folder: join(root, name), repository: repository.trim() });
  }
  return [...folders, { folder: join(dataDir, LEGACY_RUNS), repository: null }];
}

async function readRun(dir: string, repository: string | null): Promise<CommandLineRun | null> {
  try {
    const result = JSON.parse(await readFile(join(dir, 'result.json'), 'utf8')) as RunResult;
    return typeof result.runId === 'string' && typeof result.status === 'string' ? { dir, result, repository } : null;
  } catch {
    return null;
  }
}

/** One table per repository, most recent repository first. */
export function commandLineRunsTable(runs: readonly CommandLineRun[]): string {
  const groups = new Map<string, CommandLineRun[]>();
  for (const run of runs) {
    const repository = run.repository ?? run.result.repository.source;
    groups.set(repository, [...(groups.get(repository) ?? []), run]);
  }
  return [...groups]
    .map(([repository, group]) => `\nCommand-line runs (${group.length}): ${repository}\n${table(group)}`)
    .join('');
}

function table(runs: readonly CommandLineRun[]): string {
  const rows = runs.map(({ result }) => [
    result.runId,
    runStatus(result),
    result.repository.source,
    result.startedAt.replace('T', ' ').slice(0, 19),
    result.headline.slice(0, 70),
  ]);
  const header = ['RUN', 'STATUS', 'REPOSITORY', 'STARTED (UTC)', 'HEADLINE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const lines = [header, ...rows].map((row) =>
    row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '),
  );
  return `${lines.join('\n')}\n`;
}

/** `cancelled` for a run stopped by a signal or its caller, else the status with the level. */
export function runStatus(result: RunResult): string {
  return result.stopReason === 'cancelled' ? 'cancelled' : statusWithLevel(result);
}
