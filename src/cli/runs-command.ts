// `fixloop runs` and `fixloop runs show <id>`: the App's runs, from the run store in its data folder
// (FIXLOOP_DATA_DIR, else `.fixloop` where `fixloop serve` keeps one), with their audit trail and
// report; and the command line's runs, from fixloop's data folder (command-line-runs.ts): those of
// the repository the command is run in, or all of them, by repository, when it has none.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runJobData } from '../forge/run-job-data.ts';
import type { JobInfo } from '../jobs/run-store.ts';
import { userDataDir } from '../core/data-dir.ts';
import { commandLineRun, commandLineRuns, commandLineRunsTable, repositoryOf, runsFrom, runStatus } from './command-line-runs.ts';
import { deliveriesTable, unhandledDeliveries } from './stored-deliveries.ts';
import { dataDirFrom, openAppStore } from './stored-run.ts';
import { UsageError } from './usage-error.ts';
import { assessmentLine } from './assessment-line.ts';
import type { RunResult } from '../core/run-result.ts';

export interface RunsIo {
  stdout: (text: string) => void;
  /** The App's data folder (default: dataDirFrom) and the command line's (default: userDataDir). */
  dataDir?: string;
  userDataDir?: string;
}

const appDir = (io: RunsIo) => dataDirFrom(process.env, io.dataDir);
const userDir = (io: RunsIo) => io.userDataDir ?? userDataDir(process.env);

const when = (ms: number | null) => (ms === null ? '–' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19));

export async function runsList(io: RunsIo, limit: number): Promise<void> {
  const store = await openAppStore(appDir(io));
  try {
    const runs = await store.list(limit);
    // The App's runs keep their artifacts in its data folder: those are listed above, from the store.
    const kept = (await commandLineRuns(userDir(io))).filter((r) => !runs.some((j) => j.runId === r.result.runId));
    const local = runsFrom(kept, await repositoryOf(process.cwd(), true));
    if (runs.length === 0 && local.length === 0)
      io.stdout(`No runs recorded in ${[...new Set([appDir(io), userDir(io)])].join(' or ')}.\n`);
    if (runs.length > 0) printRuns(io, runs);
    const deliveries = await unhandledDeliveries(store, limit);
    if (deliveries.length > 0) io.stdout(deliveriesTable(deliveries, when));
    if (local.length > 0) io.stdout(commandLineRunsTable(local.slice(0, limit)));
  } finally {
    await store.close();
  }
}

function printRuns(io: RunsIo, runs: readonly JobInfo[]): void {
  const rows = runs.map((r) => [
    r.runId,
    r.state,
    r.key,
    r.actor ?? '–',
    when(r.enqueuedAt),
    r.state === 'running' ? r.progress : (r.outcome ?? '').slice(0, 70),
  ]);
  const header = ['RUN', 'STATE', 'FOR', 'ASKED BY', 'QUEUED (UTC)', 'PROGRESS / OUTCOME'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  for (const row of [header, ...rows])
    io.stdout(`${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')}\n`);
}

export async function runsShow(io: RunsIo, runId: string): Promise<void> {
  const store = await openAppStore(appDir(io));
  try {
    const run = await store.get(runId);
    if (!run) return await showCommandLineRun(io, runId);
    io.stdout(`Run ${run.runId}: ${run.state}, for ${run.key} (${runJobData(run).plan.kind}), asked by ${run.actor ?? '–'}\n`);
    io.stdout(
      `Queued ${when(run.enqueuedAt)}, started ${when(run.startedAt)}, finished ${when(run.finishedAt)}, tries ${run.tries}\n`,
    );
    if (run.outcome) io.stdout(`Outcome: ${run.outcome}\n`);
    const level = run.artifactsDir ? await storedAssessmentLine(run.artifactsDir) : null;
    if (level) io.stdout(`${level}\n`);
    io.stdout('\nAudit trail:\n');
    for (const e of await store.events(runId))
      io.stdout(`  ${when(e.at)}  ${e.kind.padEnd(16)} ${Object.keys(e.data).length ? JSON.stringify(e.data) : ''}\n`);
    const report = run.artifactsDir ? await readFile(join(run.artifactsDir, 'report.md'), 'utf8').catch(() => null) : null;
    io.stdout(report ? `\n${report}` : '\n(no report: the run did not get that far)\n');
  } finally {
    await store.close();
  }
}

async function showCommandLineRun(io: RunsIo, runId: string): Promise<void> {
  const local = await commandLineRun(userDir(io), runId);
  if (!local)
    throw new UsageError(`no run \`${runId}\` in ${[...new Set([appDir(io), userDir(io)])].join(' or ')} (see \`fixloop runs\`)`);
  const { result, dir } = local;
  io.stdout(
    `Run ${result.runId} (command line): ${runStatus(result)}, on ${result.repository.source}${result.repository.sha ? ` at ${result.repository.sha.slice(0, 12)}` : ''}\n`,
  );
  io.stdout(
    `Started ${result.startedAt.replace('T', ' ').slice(0, 19)}, ${(result.durationMs / 1000).toFixed(1)} s, artifacts in ${dir}\n`,
  );
  const level = assessmentLine(result);
  if (level) io.stdout(`${level}\n`);
  const report = await readFile(join(dir, 'report.md'), 'utf8').catch(() => null);
  io.stdout(report ? `\n${report}` : `\n${result.headline}\n`);
}

/** The App's run's level, from the result.json beside its report (none for a run that got no result). */
async function storedAssessmentLine(artifactsDir: string): Promise<string | null> {
  const text = await readFile(join(artifactsDir, 'result.json'), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    return assessmentLine(JSON.parse(text) as RunResult);
  } catch {
    return null;
  }
}
