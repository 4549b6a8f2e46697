// A command of fixloop's own that runs a few tests (a repair candidate's, an assessment rival's),
// started without its package manager's launcher: `npx <bin> …`, `pnpm <bin> …` and `npm test -- …`
// start the manager before the runner, which costs 0.2 to 0.5 s on every run, as much as a focused
// mocha run itself. Where the checkout has the bin in `node_modules/.bin`, the same command line
// starts it through the shell, with that folder first on PATH as npm puts it there. Never for the
// judged runs (the baseline, the replay), which run the operator's command as it is; and each caller
// runs such a command on a known version before it relies on it, the launcher's form next when it
// does not report the failing tests.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { packageScriptArguments } from './package-scripts.ts';

/** What a checkout offers a command started without npm. */
export interface DirectLaunch {
  /** The names in the checkout's `node_modules/.bin`. */
  bins: ReadonlySet<string>;
  /** package.json's scripts. */
  scripts: Readonly<Record<string, string>>;
  /** The checkout's `.npmrc` sets what npm gives the processes it starts (`node-options`, `script-shell`). */
  npmShapesProcesses: boolean;
}

/** npm settings that change the processes npm starts, which a command started without npm would lack. */
const PROCESS_SETTINGS = /^\s*(node-options|script-shell)\s*=/m;
/**
 * `npx <bin>`, `pnpm exec <bin>`, `pnpm <bin>` or `yarn <bin>`, no option of the launcher's own before
 * the bin (the last two run a script of that name first, when there is one).
 */
const LAUNCHER = /^\s*(npx|pnpm\s+exec|pnpm|yarn)\s+([A-Za-z0-9_][\w.-]*)(?=\s|$)/;
/** The checkout's own bins first on PATH, as npm puts them there for a script. */
export const BIN_PATH = 'PATH="$PWD/node_modules/.bin:$PATH"';

export async function directLaunchOf(cwd: string, scripts: Readonly<Record<string, string>>): Promise<DirectLaunch> {
  const bins = await readdir(join(cwd, 'node_modules', '.bin')).catch(() => [] as string[]);
  const npmrc = await readFile(join(cwd, '.npmrc'), 'utf8').catch(() => '');
  return { bins: new Set(bins), scripts, npmShapesProcesses: PROCESS_SETTINGS.test(npmrc) };
}

/** `command` started without npm, or null when it is not started through npm or npm adds to what it runs. */
export function withoutLauncher(command: string, launch: DirectLaunch): string | null {
  if (launch.npmShapesProcesses) return null;
  const [launcher, by, bin] = LAUNCHER.exec(command) ?? [];
  if (launcher && by && bin && (/^(npx|pnpm\s+exec)$/.test(by) || !Object.hasOwn(launch.scripts, bin)) && launch.bins.has(bin))
    return `${BIN_PATH} ${command.slice(launcher.length - bin.length)}`;
  const { name, args } = packageScriptArguments(command) ?? {};
  if (!name || !args) return null;
  const script = Object.hasOwn(launch.scripts, name) ? launch.scripts[name] : undefined;
  // npm runs `pre<name>` and `post<name>` around it, and a script may read the variables npm sets.
  if (!script || /[$`]/.test(script) || `pre${name}` in launch.scripts || `post${name}` in launch.scripts) return null;
  const program = /^\s*(?:[A-Za-z_]\w*=\S*\s+)*([^\s=]+)/.exec(script)?.[1] ?? '';
  if (program !== 'node' && !launch.bins.has(program)) return null;
  return `${BIN_PATH} ${script.trim()} ${args}`;
}
