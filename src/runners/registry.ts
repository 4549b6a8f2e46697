// The test runners fixloop knows, in one list, and which one a test command starts. Adding a runner
// is a folder beside this file and one line here; nothing else in src/ names a runner (an ESLint rule,
// test/architecture/boundaries.test.ts).
import type { TestRunner } from './runner.ts';
import { packageScriptCall, packageScriptName } from './package-scripts.ts';
import { jestRunner } from './jest/jest-runner.ts';
import { mochaRunner } from './mocha/mocha-runner.ts';
import { nodeTestRunner } from './node-test/node-test-runner.ts';
import { pytestRunner } from './pytest/pytest-runner.ts';
import { vitestRunner } from './vitest/vitest-runner.ts';

export type { TestRunner } from './runner.ts';

/**
 * In the order a command is recognised: the first whose program the command names wins (`node --test
 * test/vitest.test.js` is node's runner, not vitest). Output is tried in the same order.
 */
export const RUNNERS: readonly TestRunner[] = [pytestRunner, nodeTestRunner, vitestRunner, jestRunner, mochaRunner];

/** The runner a command line starts itself, not through a script. */
export function directRunnerOf(command: string): TestRunner | null {
  return RUNNERS.find((r) => r.startedBy(command)) ?? null;
}

/**
 * The package.json script that `npm test` / `npm run <script>` / `npm <script>` (or pnpm's or yarn's
 * same call) runs, if the command is only that.
 */
export function packageScriptOf(command: string, packageScripts: Record<string, string>): string | null {
  return scriptNamed(packageScriptName(command), packageScripts);
}

function scriptNamed(name: string | null, packageScripts: Record<string, string>): string | null {
  return name !== null && Object.hasOwn(packageScripts, name) ? (packageScripts[name] ?? null) : null;
}

/** How deep scripts that run scripts are followed (`npm test` → `npm run test:unit && npm run lint` → `jest`). */
const SCRIPT_DEPTH = 3;

/**
 * The runner a test command starts, directly or through `npm test` / `npm run <script>` (or pnpm's or
 * yarn's), and through the steps such a script runs in a chain (`npm run test:jest && npm run lint`,
 * `pnpm lint && pnpm vitest run`): the first found.
 */
export function runnerOf(command: string, packageScripts: Record<string, string> = {}, depth = 0): TestRunner | null {
  const direct = directRunnerOf(command);
  if (direct) return direct;
  // What the package manager hands the script (a focused run's selection, `--silent`) starts no other runner.
  const script = scriptNamed(packageScriptCall(command)?.name ?? null, packageScripts);
  if (script === null) return null;
  const found = directRunnerOf(script);
  if (found || depth >= SCRIPT_DEPTH) return found;
  for (const step of script.split('&&')) {
    const inner = runnerOf(step.trim(), packageScripts, depth + 1);
    if (inner) return inner;
  }
  return null;
}

/** Every runner's folders inside `node_modules` that it writes while the tests run (TestRunner.nodeModulesScratch). */
export const RUNNER_SCRATCH_FOLDERS: readonly string[] = [...new Set(RUNNERS.flatMap((r) => r.nodeModulesScratch ?? []))];

/**
 * The environment variables the runners set in their test processes, every runner's (a patch may look
 * for another runner's too): code that reads one can be right only under test. The static check reads
 * them in added lines (src/verify/harness-tampering.ts); the runtime guards watch them being read.
 */
export const RUNNER_VARIABLES: readonly RegExp[] = RUNNERS.flatMap((r) =>
  r.judged?.envVariables ? [r.judged.envVariables] : [],
);

/** The values the runners give variables honest code reads too (`NODE_ENV` → `test`), as [name, value]. */
export const RUNNER_VARIABLE_VALUES: ReadonlyArray<readonly [string, string]> = [
  ...new Map(RUNNERS.flatMap((r) => Object.entries(r.judged?.envValues ?? {})).map((e) => [e.join('='), e] as const)).values(),
];

/** The methods the runners' assertions ask a value to compare itself with. */
export const RUNNER_EQUALITY_HOOKS: readonly string[] = [...new Set(RUNNERS.flatMap((r) => r.judged?.equalityHooks ?? []))];

/** RUNNER_VARIABLES as the runtime guards are told them (GuardContext.runnerVariables). */
export const RUNNER_VARIABLE_SOURCES: readonly string[] = RUNNER_VARIABLES.map((pattern) => pattern.source);
