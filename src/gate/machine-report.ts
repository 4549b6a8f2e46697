// The runner's own report (docs/design.md §3.2.1): text on stdout can be printed by anything the tests
// run, so fixloop also asks the runner for a machine report, written to a folder of fixloop's outside
// the checkout, and keeps its counts beside the parsed output as a second witness. Each runner says
// how it is asked (its environment, which reaches it through `npm test`, make or a script, or its
// command line) and when (src/runners/<runner>/); every runner that has a machine report is asked.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Mount } from '../sandbox/sandbox.ts';
import type { TestReport, Witness } from '../core/test-report.ts';
import { parseJunit } from '../formats/junit.ts';
import { RUNNERS } from '../runners/registry.ts';
import type { MachineReport } from '../runners/runner.ts';
import { packageScriptsNow } from '../runners/package-scripts.ts';

export interface MachineReportRequest {
  /** The test command, with the options of the runners that are asked on the command line. */
  command: string;
  /** Variables that ask the runners that are asked through their environment. */
  env: Record<string, string>;
  /** The folder the runners write into, shown writable to the sandbox. */
  mounts: Mount[];
  /** Reads what the runners wrote: null when none of them wrote a readable report. */
  read(): Promise<Witness | null>;
  /** Removes the folder. */
  dispose(): Promise<void>;
}

const REPORTS: readonly MachineReport[] = RUNNERS.flatMap((r) => (r.machineReport ? [r.machineReport] : []));

export interface MachineReportContext {
  command: string;
  /** Where the command runs (its package.json says what `npm test` starts). */
  cwd: string;
  /** The sandbox environment the gate passes already (config.env), to which the requests are added. */
  env: Record<string, string>;
}

export async function requestMachineReport(context: MachineReportContext): Promise<MachineReportRequest> {
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-report-'));
  const env: Record<string, string> = {};
  const packageScripts = packageScriptsNow(context.cwd);
  let command = context.command;
  for (const report of REPORTS) {
    const asked = report.ask({ command, env: context.env, packageScripts }, join(dir, report.file));
    if (asked?.env) Object.assign(env, asked.env);
    if (asked?.command) command = asked.command;
  }
  return {
    command,
    env,
    mounts: [{ path: dir, writable: true }],
    read: () => readWitness(dir),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

async function readWitness(dir: string): Promise<Witness | null> {
  for (const { file, witness } of REPORTS) {
    const xml = await readFile(`${dir}/${file}`, 'utf8').catch(() => null);
    const report = xml ? parseJunit(xml) : null;
    if (report) return witnessOf(witness, report);
  }
  return null;
}

function witnessOf(runner: string, report: TestReport): Witness {
  return { runner, passed: report.passed, failed: report.failed, skipped: report.skipped, total: report.total };
}
