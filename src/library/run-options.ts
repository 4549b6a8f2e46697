// The options of the library's `run`, and their checks: every problem of a call is found before
// anything runs, each named by its option, so a caller (often a program, not a person) can fix it.
import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { ENGINE_NAMES, type EngineName } from '../core/repo-config.ts';
import type { RunProgress } from '../loop/progress.ts';
import { SANDBOX_CHOICES, type SandboxChoice } from '../sandbox/select-sandbox.ts';
import { FixloopInputError, type InputProblem } from './library-error.ts';

export interface RunOptions {
  /** Names the task's artifacts (`<taskId>-<attempt>.diff`): letters, digits, `.`, `_` and `-`, at most 100. */
  taskId: string;
  /** The test command, run with /bin/sh -c from the repository's root; its exit code is the gate. */
  testCommand: string;
  /** Most attempts in the run (default 5, at most 100). */
  attemptLimit?: number;
  /** Run once in each fresh checkout before the first test run (e.g. `npm ci`). */
  setupCommand?: string;
  /** The engine cascade, cheapest first (default: the repository's fixloop.yml, else `['repair']`). */
  engines?: EngineName[];
  /** The command the `script` engine runs in the workspace for each attempt. */
  scriptCommand?: string;
  /** What is wrong, in words; with an engine that writes tests, a passing suite gets a failing test first. */
  goal?: string;
  /** Where the diffs and the run's report go (default: a new folder in the system's temp directory). Never inside the repository. */
  artifactsDir?: string;
  /** The isolation backend for the repository's code (default `auto`: bwrap, else docker, else process). */
  sandbox?: SandboxChoice;
  /** Whether the setup command may reach the network (default true, as on the CLI); tests never may. */
  setupNetwork?: boolean;
  /**
   * Start from the repository's working tree as it is (default true, as `fixloop run`): uncommitted
   * changes to tracked files and untracked files git does not ignore are part of the run (as a commit
   * of fixloop's own mirror; the repository itself is never written). false: from its HEAD (`--head`).
   */
  workingTree?: boolean;
  /** Seconds before a test, setup or script command is killed (default: the repository's file, else 600, 900, 600). */
  timeoutSeconds?: number;
  /** A folder where dependency caches are kept between runs (default: none, nothing is kept). */
  cacheDir?: string;
  /** Where LLM engines read their settings (FIXLOOP_MODEL, keys, ceilings); default process.env. Never given to the repository's code. */
  env?: Record<string, string | undefined>;
  /** Aborting it stops the run in any phase: the outcome is `failed_to_green` with `stopReason: 'cancelled'`, and `result.cancelled` names the phase. */
  signal?: AbortSignal;
  /** Told each phase and attempt as it starts, and each line an engine logs. */
  onProgress?: (progress: RunProgress) => void;
}

/** The options as the run uses them: checked, paths absolute, defaults filled in. */
export interface CheckedOptions extends Omit<
  RunOptions,
  'attemptLimit' | 'artifactsDir' | 'sandbox' | 'setupNetwork' | 'workingTree'
> {
  repository: string;
  attemptLimit: number;
  /** Null: the caller named none, a temp folder is made. */
  artifactsDir: string | null;
  sandbox: SandboxChoice;
  setupNetwork: boolean;
  workingTree: boolean;
}

const OPTION_NAMES: ReadonlySet<string> = new Set<keyof RunOptions>([
  'taskId',
  'testCommand',
  'attemptLimit',
  'setupCommand',
  'engines',
  'scriptCommand',
  'goal',
  'artifactsDir',
  'sandbox',
  'setupNetwork',
  'workingTree',
  'timeoutSeconds',
  'cacheDir',
  'env',
  'signal',
  'onProgress',
]);
const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const MAX_ATTEMPTS = 100;
const MAX_SECONDS = 86_400;

type Problems = InputProblem[];
const describe = (value: unknown) =>
  typeof value === 'string'
    ? JSON.stringify(value)
    : Array.isArray(value)
      ? 'an array'
      : value === null
        ? 'null'
        : typeof value === 'object'
          ? 'an object'
          : String(value);

function text(o: Record<string, unknown>, name: string, required: boolean, problems: Problems): string | undefined {
  const value = o[name];
  if (value === undefined) {
    if (required) problems.push({ code: 'MISSING_OPTION', option: name, message: `\`${name}\` is required` });
    return undefined;
  }
  if (typeof value !== 'string' || !value.trim()) {
    problems.push({
      code: 'INVALID_OPTION',
      option: name,
      message: `\`${name}\` must be a non-empty string, got ${describe(value)}`,
    });
    return undefined;
  }
  return value;
}

function integer(o: Record<string, unknown>, name: string, max: number, problems: Problems): number | undefined {
  const value = o[name];
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max) return value;
  problems.push({
    code: 'INVALID_OPTION',
    option: name,
    message: `\`${name}\` must be a positive integer (at most ${max}), got ${describe(value)}`,
  });
  return undefined;
}

function oneOf<T extends string>(
  o: Record<string, unknown>,
  name: string,
  choices: readonly T[],
  problems: Problems,
): T | undefined {
  const value = o[name];
  if (value === undefined || (choices as readonly unknown[]).includes(value)) return value as T | undefined;
  problems.push({
    code: 'INVALID_OPTION',
    option: name,
    message: `\`${name}\` must be one of ${choices.join(', ')}, got ${describe(value)}`,
  });
  return undefined;
}

function engineList(o: Record<string, unknown>, problems: Problems): EngineName[] | undefined {
  const value = o.engines;
  if (value === undefined) return undefined;
  const unknown = Array.isArray(value) ? value.filter((e) => !(ENGINE_NAMES as readonly unknown[]).includes(e)) : [];
  if (Array.isArray(value) && value.length > 0 && unknown.length === 0) return value as EngineName[];
  const got = Array.isArray(value)
    ? value.length === 0
      ? 'an empty array'
      : `unknown ${unknown.map(describe).join(', ')}`
    : describe(value);
  problems.push({
    code: 'INVALID_OPTION',
    option: 'engines',
    message: `\`engines\` must be a non-empty array of ${ENGINE_NAMES.join(', ')}, got ${got}`,
  });
  return undefined;
}

function repositoryDir(path: unknown, problems: Problems): string {
  if (typeof path !== 'string' || !path.trim()) {
    problems.push({
      code: 'INVALID_OPTION',
      option: 'repositoryPath',
      message: `\`repositoryPath\` must be the path of a local repository, got ${describe(path)}`,
    });
    return '';
  }
  const dir = resolve(path);
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat?.isDirectory())
    problems.push({
      code: 'REPOSITORY_NOT_FOUND',
      option: 'repositoryPath',
      message: `\`repositoryPath\` ${JSON.stringify(path)} ${stat ? 'is not a directory' : 'does not exist'}`,
    });
  return dir;
}

/** The artifacts folder, absolute; refused inside the repository, which a run never writes. */
function artifactsFolder(o: Record<string, unknown>, repository: string, problems: Problems): string | null {
  const given = text(o, 'artifactsDir', false, problems);
  if (given === undefined) return null;
  const dir = resolve(given);
  const inside = relative(repository, dir);
  if (repository && (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside)))) {
    problems.push({
      code: 'INVALID_OPTION',
      option: 'artifactsDir',
      message: `\`artifactsDir\` ${JSON.stringify(given)} is inside the repository, which a run never writes: choose a folder outside it`,
    });
  }
  return dir;
}

function others(o: Record<string, unknown>, problems: Problems): void {
  const bad = (option: string, expected: string) =>
    problems.push({ code: 'INVALID_OPTION', option, message: `\`${option}\` must be ${expected}, got ${describe(o[option])}` });
  if (o.setupNetwork !== undefined && typeof o.setupNetwork !== 'boolean') bad('setupNetwork', 'a boolean');
  if (o.workingTree !== undefined && typeof o.workingTree !== 'boolean') bad('workingTree', 'a boolean');
  if (
    o.env !== undefined &&
    (typeof o.env !== 'object' ||
      o.env === null ||
      Array.isArray(o.env) ||
      Object.values(o.env).some((v) => v !== undefined && typeof v !== 'string'))
  )
    bad('env', 'an object of strings');
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal)) bad('signal', 'an AbortSignal');
  if (o.onProgress !== undefined && typeof o.onProgress !== 'function') bad('onProgress', 'a function');
  for (const name of Object.keys(o).filter((k) => !OPTION_NAMES.has(k))) {
    problems.push({
      code: 'UNKNOWN_OPTION',
      option: name,
      message: `unknown option \`${name}\` (known: ${[...OPTION_NAMES].join(', ')})`,
    });
  }
}

const absolute = (path: string | undefined) => (path === undefined ? undefined : resolve(path));

/** Checks `run`'s arguments; throws one FixloopInputError naming every problem. */
export function checkRunOptions(repositoryPath: unknown, options: unknown): CheckedOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new FixloopInputError([
      {
        code: 'MISSING_OPTION',
        option: 'options',
        message: 'the options are required: run(repositoryPath, { taskId, testCommand, … })',
      },
    ]);
  }
  const o = options as Record<string, unknown>;
  const problems: Problems = [];
  const repository = repositoryDir(repositoryPath, problems);
  const taskId = text(o, 'taskId', true, problems);
  if (taskId !== undefined && !TASK_ID.test(taskId)) {
    problems.push({
      code: 'INVALID_OPTION',
      option: 'taskId',
      message: `\`taskId\` names files: letters, digits, \`.\`, \`_\` and \`-\`, starting with a letter or digit, at most 100; got ${describe(taskId)}`,
    });
  }
  const checked = {
    repository,
    taskId: taskId ?? '',
    testCommand: text(o, 'testCommand', true, problems) ?? '',
    attemptLimit: integer(o, 'attemptLimit', MAX_ATTEMPTS, problems) ?? 5,
    setupCommand: text(o, 'setupCommand', false, problems),
    engines: engineList(o, problems),
    scriptCommand: text(o, 'scriptCommand', false, problems),
    goal: text(o, 'goal', false, problems),
    artifactsDir: artifactsFolder(o, repository, problems),
    sandbox: oneOf(o, 'sandbox', SANDBOX_CHOICES, problems) ?? 'auto',
    setupNetwork: o.setupNetwork !== false,
    workingTree: o.workingTree !== false,
    timeoutSeconds: integer(o, 'timeoutSeconds', MAX_SECONDS, problems),
    cacheDir: absolute(text(o, 'cacheDir', false, problems)),
    env: o.env as RunOptions['env'],
    signal: o.signal as RunOptions['signal'],
    onProgress: o.onProgress as RunOptions['onProgress'],
  };
  others(o, problems);
  const [first, ...rest] = problems;
  if (first) throw new FixloopInputError([first, ...rest]);
  return withoutUndefined(checked);
}

/** The properties that may be undefined become optional ones, absent rather than `undefined`. */
type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** `exactOptionalPropertyTypes`: an absent option is absent, not `undefined`. */
function withoutUndefined<T extends object>(value: T): Defined<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Defined<T>;
}
