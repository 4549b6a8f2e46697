// The runner's own report (DESIGN.md §3.2.1): text on stdout can be printed by anything the tests
// run, so fixloop also asks the runner for a machine report, written to a folder of fixloop's outside
// the checkout, and keeps its counts beside the parsed output as a second witness. node's test runner
// and pytest are asked through their environment (NODE_OPTIONS, PYTEST_ADDOPTS), so the request
// reaches them through `npm test`, make or a script; vitest, whose options live on its command line
// only, is asked when the test command is a single vitest invocation. node is asked only where the
// command or package.json's scripts run `node --test`: a Node older than 18.15 refuses to start with
// reporter options in NODE_OPTIONS, and a project on such a Node does not use node's runner.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Mount } from '../sandbox/sandbox.ts';
import type { TestReport, Witness } from '../core/test-report.ts';
import { parseJunit } from './parsers/junit.ts';

export interface MachineReportRequest {
  /** The test command, with vitest's reporter options when it was asked on the command line. */
  command: string;
  /** Variables that ask node's runner and pytest for their JUnit reports. */
  env: Record<string, string>;
  /** The folder the runners write into, shown writable to the sandbox. */
  mounts: Mount[];
  /** Reads what the runners wrote: null when none of them wrote a readable report. */
  read(): Promise<Witness | null>;
  /** Removes the folder. */
  dispose(): Promise<void>;
}

const FILES = { node: 'node-test.xml', pytest: 'pytest.xml', vitest: 'vitest.xml' } as const;

/** A command that is one vitest invocation, nothing chained after it (options can be appended). */
const SINGLE_VITEST = /^\s*(?:(?:npx|pnpm|pnpm exec|yarn)\s+)?vitest(?:\s+run)?\b[^;&|<>`$()]*$/;

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
  const { command } = context;
  // An operator's own reporter options decide node's reporters: adding ours would unbalance them.
  if (runsNodeTest(context) && !/--test-reporter/.test(`${command} ${context.env.NODE_OPTIONS ?? ''}`)) {
    env.NODE_OPTIONS = options([context.env.NODE_OPTIONS, '--test-reporter=spec --test-reporter-destination=stdout', `--test-reporter=junit --test-reporter-destination=${join(dir, FILES.node)}`]);
  }
  if (!/--junit-?xml/.test(`${command} ${context.env.PYTEST_ADDOPTS ?? ''}`)) {
    env.PYTEST_ADDOPTS = options([context.env.PYTEST_ADDOPTS, `--junitxml=${join(dir, FILES.pytest)}`]);
  }
  const askVitest = SINGLE_VITEST.test(command) && !/--reporter/.test(command);
  return {
    command: askVitest ? `${command} --reporter=default --reporter=junit --outputFile.junit=${join(dir, FILES.vitest)}` : command,
    env,
    mounts: [{ path: dir, writable: true }],
    read: () => readWitness(dir),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** `node [options] --test`, not `--test-only` or `--test-name-pattern` alone. */
const NODE_TEST = /\bnode\b[^;&|]*\s--test(?![-\w])/;

function runsNodeTest(context: MachineReportContext): boolean {
  return NODE_TEST.test(context.command) || NODE_TEST.test(packageScripts(context.cwd));
}

function packageScripts(cwd: string): string {
  try {
    const scripts = (JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { scripts?: unknown }).scripts;
    return scripts && typeof scripts === 'object' ? Object.values(scripts).filter((s) => typeof s === 'string').join('\n') : '';
  } catch {
    return ''; // no package.json, or one npm would refuse too: nothing here starts node's runner
  }
}

function options(parts: Array<string | undefined>): string {
  return parts.filter((p) => p !== undefined && p.trim() !== '').join(' ');
}

async function readWitness(dir: string): Promise<Witness | null> {
  for (const [runner, file] of Object.entries(FILES)) {
    const xml = await readFile(`${dir}/${file}`, 'utf8').catch(() => null);
    const report = xml ? parseJunit(xml) : null;
    if (report) return witnessOf(runner as Witness['runner'], report);
  }
  return null;
}

function witnessOf(runner: Witness['runner'], report: TestReport): Witness {
  return { runner, passed: report.passed, failed: report.failed, skipped: report.skipped, total: report.total };
}
