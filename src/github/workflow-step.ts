// A GitHub Actions workflow file read for the command of one step: the job GitHub named (its `name:`,
// or its key; a matrix job is named `name (values)`), and the step GitHub named (its `name:`, or
// `Run <first line of run:>`, as GitHub names an unnamed step). The step's `run:` is the command, in
// its `working-directory` when it has one.
import { parse } from 'yaml';

interface Step {
  name?: unknown;
  run?: unknown;
  'working-directory'?: unknown;
}

interface Job {
  name?: unknown;
  steps?: unknown;
  defaults?: { run?: { 'working-directory'?: unknown } };
}

/** Whether GitHub's name of a job (`lint`, `Lint (20.x)`) is this job's. */
function namesJob(name: string, key: string, job: Job): boolean {
  const own = typeof job.name === 'string' ? job.name : key;
  // A matrix or an expression in the name: compare what precedes it.
  const stem = own.split(/\s*[($]/)[0]?.trim() ?? own;
  return name === own || name === key || (stem.length > 0 && name.startsWith(`${stem} (`));
}

function firstLine(run: string): string {
  return run.trim().split('\n')[0]?.trim() ?? '';
}

/** Whether GitHub's name of a step is this step's. */
function namesStep(name: string, step: Step): boolean {
  if (typeof step.name === 'string') return step.name === name;
  return typeof step.run === 'string' && `Run ${firstLine(step.run)}` === name;
}

const INSTALL = /^(npm (ci|install)|yarn( install)?|pnpm (i|install)|pip3? install|python3? -m pip install)(\s|$)/;

/** The step's commands less its installs (`npm ci`), which the run's setup does and its sandbox has no network for. */
function withoutInstalls(run: string): string {
  const parts = run
    .split(/\n|&&/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0 && !p.startsWith('#'));
  const kept = parts.filter((p) => !INSTALL.test(p));
  return (kept.length > 0 ? kept : parts).join(' && ');
}

function command(step: Step, job: Job): string | null {
  if (typeof step.run !== 'string' || !step.run.trim()) return null;
  const dir = step['working-directory'] ?? job.defaults?.run?.['working-directory'];
  const run = withoutInstalls(step.run);
  return typeof dir === 'string' && dir.trim() && dir.trim() !== '.' ? `cd ${JSON.stringify(dir.trim())} && ${run}` : run;
}

/**
 * The command of the step named `step` in the job named `job`; with no step name, the job's only
 * `run:` step that is no setup (an install); null when the file does not say.
 */
export function stepCommand(workflow: string, job: string, step: string | null): string | null {
  let doc: { jobs?: Record<string, Job> };
  try {
    doc = (parse(workflow) ?? {}) as { jobs?: Record<string, Job> };
  } catch {
    return null;
  }
  for (const [key, found] of Object.entries(doc.jobs ?? {})) {
    if (!found || !namesJob(job, key, found) || !Array.isArray(found.steps)) continue;
    const steps = (found.steps as Step[]).filter((s) => s && typeof s === 'object');
    if (step) {
      const named = steps.find((s) => namesStep(step, s));
      return named ? command(named, found) : null;
    }
    const runs = steps.filter((s) => typeof s.run === 'string' && !INSTALL.test(s.run.trim()));
    return runs.length === 1 && runs[0] ? command(runs[0], found) : null;
  }
  return null;
}
