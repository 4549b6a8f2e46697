// The command the assessment's probed runs use (docs/design.md §3.3): the test command without the
// check steps it chains around the tests (`standard && tap`, `npm run lint && jest`). A probed version's
// files are instrumented, so a linter run on them fails and stops the chain before the tests run, and
// a check records no call: every probed run then ends before the tests, and the assessment cannot
// look. The judge's runs (baseline, replay) keep the operator's command as it is.
// Each script the chain runs through its package manager (`npm test`, `npm run lint`, `pnpm lint`) is
// read from package.json, with its `pre` and `post` scripts, and its steps run by the shell with the
// checkout's bins first on PATH, as the manager runs them. Only where that is the same: steps joined by `&&` alone, no script that reads the
// variables npm sets, no `.npmrc` that changes the processes npm starts (direct-launch.ts).
import { checkToolsOf } from '../checks/registry.ts';
import { BIN_PATH, type DirectLaunch } from '../runners/direct-launch.ts';
import { packageScriptName } from '../runners/package-scripts.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';

/** Anything but `&&` between commands, a group, a redirection, a variable or a substitution: not a plain chain. */
const NOT_A_CHAIN = /\|\||[;|()<>`$\n]|&(?!&)/;
/** How deep scripts that run scripts are followed. */
const DEPTH = 3;

/** The test command without its check steps, or null when it has none, or its steps cannot be run without npm. */
export function withoutCheckSteps(command: string, launch: DirectLaunch): string | null {
  if (launch.npmShapesProcesses) return null;
  const steps = chainSteps(command.trim(), launch.scripts, 0);
  if (!steps) return null;
  const kept = steps.filter((step) => checkToolsOf(step).length === 0);
  if (kept.length === steps.length || kept.length === 0) return null;
  return `${BIN_PATH} ${kept.join(' && ')}`;
}

/** The steps of a chain `a && b`, each npm script in it replaced by its own steps; null when one is not a plain chain. */
function chainSteps(command: string, scripts: Readonly<Record<string, string>>, depth: number): string[] | null {
  if (NOT_A_CHAIN.test(command.replace(/&&/g, ' '))) return null;
  const steps: string[] = [];
  for (const step of command.split('&&').map((s) => s.trim())) {
    if (step === '') return null;
    const name = packageScriptName(step);
    if (name === null) {
      steps.push(step);
      continue;
    }
    if (depth >= DEPTH || !Object.hasOwn(scripts, name)) return null;
    for (const script of [`pre${name}`, name, `post${name}`].filter((s) => Object.hasOwn(scripts, s))) {
      const inner = chainSteps(scripts[script] ?? '', scripts, depth + 1);
      if (!inner) return null;
      steps.push(...inner);
    }
  }
  return steps;
}

/** The suite whose whole runs are `command`'s, for the probed runs (its other runs as they were). */
export function withWholeRunsOf(suite: SuiteRunner, command: string): SuiteRunner {
  return { ...suite, gate: (cwd, timeoutMs) => suite.gateWith(cwd, command, timeoutMs) };
}
