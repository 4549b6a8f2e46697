// What npm's start costs a run of the failing tests alone (src/runners/direct-launch.ts): for each
// JavaScript bug of the real corpus (its upstream fix applied, so the failing tests pass), the
// focused command of its failing tests run by the gate, runtime guard included, as npm starts it and
// started without npm, in turn, `--runs` times each (default 7). Prints each one's median, their
// ratio, and whether both passed the failing tests every time. The repair engine's candidates and
// the assessment's rivals each pay one such run. Run:
//   node bench/focused-launch.ts [--runs 7] [--half tuning|held-out] [--filter a,b]
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { runGate } from '../src/gate/run-gate.ts';
import { directLaunchOf } from '../src/runners/direct-launch.ts';
import { focusChoices } from '../src/runners/focused-test-command.ts';
import { packageScripts } from '../src/runners/package-scripts.ts';
import { createProcessSandbox } from '../src/sandbox/process-sandbox.ts';
import type { GateResult } from '../src/core/gate-result.ts';
import { flag } from './lib/args.ts';
import { materializeReal, setUp, type RealBug } from './lib/real-corpus.ts';
import { loadRealHalf } from './lib/real-split.ts';
import { reportUnbuilt } from './lib/real-unbuilt.ts';
import { median } from './lib/stats.ts';

const RUNS = Number(flag('--runs') ?? 7);
const filters = (flag('--filter') ?? '').split(',');
const sandbox = createProcessSandbox();
const realDir = new URL('real', import.meta.url).pathname;

const shell = async (command: string, cwd: string) => {
  try {
    const { stdout, stderr } = await promisify(execFile)('sh', ['-c', command], { cwd, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
};

const gate = (command: string, cwd: string): Promise<GateResult> =>
  runGate(sandbox, { command, cwd, timeoutMs: 120_000, env: { NO_COLOR: '1' } });

/** Whether the run passed and reported every failing test of the bug passed. */
function passedAll(result: GateResult, bug: RealBug): boolean {
  const passed = new Set(result.report.tests.filter((t) => t.status === 'passed').map((t) => t.id));
  return result.passed && bug.failing.every((id) => passed.has(id));
}

async function measure(bug: RealBug): Promise<string> {
  const dir = materializeReal(bug, 'launch', true);
  try {
    const setupProblem = await setUp(bug, dir, shell);
    if (setupProblem) return `${bug.id}: ${setupProblem.split('\n')[0]}`;
    const suite = await gate(bug.test, dir);
    const failing = suite.report.tests.filter((t) => bug.failing.includes(t.id));
    const scripts = await packageScripts(dir);
    const choices = focusChoices(bug.test, failing, scripts, await directLaunchOf(dir, scripts));
    const at = choices.findIndex((c) => c.direct);
    const [direct, launcher] = [choices[at], choices[at + 1]];
    if (!direct || !launcher) return `${bug.id}: \`${bug.test}\` is not started through npm, or its bin is not installed`;
    const ms = { launcher: [] as number[], direct: [] as number[] };
    let allPassed = true;
    for (let i = 0; i < RUNS; i++) {
      for (const [form, command] of [
        ['launcher', launcher.command],
        ['direct', direct.command],
      ] as const) {
        const started = Date.now();
        const result = await gate(command, dir);
        ms[form].push(Date.now() - started);
        allPassed &&= passedAll(result, bug);
      }
    }
    const [a, b] = [median(ms.launcher) ?? 0, median(ms.direct) ?? 0];
    const cells = [bug.id, bug.runner, `${(a / 1000).toFixed(2)} s`, `${(b / 1000).toFixed(2)} s`, `${(b / a).toFixed(2)}`];
    return `| ${cells.join(' | ')} | ${allPassed ? 'yes' : 'no'} |`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const match = (b: { id: string }) => filters.some((f) => b.id.includes(f));
reportUnbuilt(realDir, { half: flag('--half'), match });
console.log(`Each form run ${RUNS} times, in turn, by the gate with its runtime guard (process sandbox).\n`);
console.log(
  '| Bug | Runner | npm starts it (median) | started without npm (median) | ratio | failing tests passed in every run |',
);
console.log('| --- | --- | ---: | ---: | ---: | :---: |');
for (const bug of loadRealHalf(realDir, flag('--half')).filter(match)) {
  if (bug.language === 'python') continue;
  console.log(await measure(bug));
}
