// The assessment's own checkout: one pristine clone of the mirror, set up once (the repository's
// setup, with its dependency cache), in which each version of the program is written in turn, its
// changed functions instrumented, and the suite (or the failing tests alone) run. The records are
// read back from a folder inside the checkout, the one place a sandboxed test process may write.
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { seconds } from '../core/duration-words.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import type { ProbeLanguage } from './probe-language.ts';
import type { InstrumentedFile, ProbeRecord, ProbedFunction, ProbeTarget } from './probe-record.ts';
import type { VersionPlan } from './probe-plan.ts';
import { probeLanguageOf } from './probe-languages.ts';
import { NO_CHANGE_VALUES, type ChangeValues } from './change-values.ts';
import { writtenSince } from './written-since.ts';

/** The folder in the checkout where the runtime files and the records live. */
export const PROBE_FOLDER = '.fixloop-probe';
/** Beside the records: the repository's test files, by which a runtime tells who called (js/probe-runtime.cjs reads it by this name). */
const TEST_FILES_LIST = 'test-files.json';

export interface ProbeRun {
  records: ProbeRecord[];
  /** The functions instrumented in this version, by id. */
  functions: Map<string, ProbedFunction>;
  gate: GateResult | null;
  /** Where the run's time went: writing the instrumented version, the suite, reading its records (ms). */
  spent: { writeMs: number; suiteMs: number; readMs: number };
}

export interface ProbeCheckout {
  dir: string;
  /** What the patches' changed lines name, the same for every version written here; absent: none. */
  values?: ChangeValues;
  /** Writes `plan` (instrumented) and runs the suite, or `command` when given, within `timeoutMs`; a plan with no function instrumented is not run (it could record nothing). */
  run(plan: VersionPlan, label: string, timeoutMs: number, command?: string): Promise<ProbeRun>;
  /** Writes `plan` as that version has it, nothing instrumented: the program as it would ship (outside-look.ts). */
  writePlain(plan: VersionPlan): Promise<void>;
  /**
   * Runs `work` with the repository's test files, its `.git` folder and every file written since the
   * checkout was set up (by the runs of the versions: writtenSince) moved out of the checkout (to
   * `<dir>-hidden`, beside it), as a program is shipped, and puts them back after, whatever happened.
   */
  withoutTests<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` with `paths` (relative) moved out of the checkout (to `<dir>-unpackaged`), and puts
   * them back after, whatever happened: what a published package does not hold (packaged-files.ts).
   */
  withoutFiles<T>(paths: readonly string[], work: () => Promise<T>): Promise<T>;
  /**
   * Turns generated calls off for every later run here (a file in the probe's folder that each
   * language's runtime reads): after a run they broke, those around functions nested in another
   * (`nested`: a closure's generated call changes its enclosing call's locals), then all of them,
   * and the versions are compared on the suite's own calls.
   */
  stopGenerating(scope: GenerationStop): Promise<void>;
  /** Which calls runs here still generate around: `all`, `top-level` (not around nested functions), `none`. */
  generating(): Generation;
}

/** What a run that broke turns off: the calls generated around nested functions, or all of them. */
export type GenerationStop = 'nested' | 'all';
export type Generation = 'all' | 'top-level' | 'none';

/** The file in the probe's folder that turns generated calls off (js/probe-runtime.cjs, python/fixloop_probe_generation.py read it). */
const NO_GENERATED = 'no-generated-inputs';

/**
 * `testFiles`: the repository's test files, relative (the callers of a probed function are told by
 * them); `values`: what the patches' changed lines name, the same for every version written here.
 */
export function probeCheckout(
  dir: string,
  suite: SuiteRunner,
  testFiles: readonly string[],
  values: ChangeValues = NO_CHANGE_VALUES,
): ProbeCheckout {
  const folder = join(dir, PROBE_FOLDER);
  // Made right after the setup (assess-patch.ts): what is newer, a run wrote. The next millisecond:
  // Date.now() is rounded down, and a file the setup wrote within this one has a later mtimeMs.
  const setUpAt = Date.now() + 1;
  let generating: Generation = 'all';
  return {
    dir,
    values,
    generating: () => generating,
    async stopGenerating(scope) {
      await mkdir(folder, { recursive: true });
      // The runtimes read `nested` as "not around nested functions", anything else as "none".
      await writeFile(join(folder, NO_GENERATED), scope === 'nested' ? 'nested' : '');
      generating = scope === 'nested' ? 'top-level' : 'none';
    },
    async withoutTests(work) {
      const unshipped = [...testFiles, '.git'];
      const written = await writtenSince(dir, setUpAt, new Set([...unshipped, PROBE_FOLDER]));
      return movedAside(dir, `${dir}-hidden`, [...unshipped, ...written], work);
    },
    withoutFiles: (paths, work) => movedAside(dir, `${dir}-unpackaged`, paths, work),
    async writePlain(plan) {
      for (const [path, { text }] of plan.files) {
        const file = join(dir, path);
        if (text === null) await rm(file, { force: true });
        else await mkdir(dirname(file), { recursive: true }).then(() => writeFile(file, text));
      }
    },
    async run(plan, label, timeoutMs, command) {
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, TEST_FILES_LIST), JSON.stringify(testFiles));
      const recordFile = join(folder, `${label}.jsonl`);
      await rm(recordFile, { force: true });
      const started = Date.now();
      const functions = await writePlan(dir, plan, { recordFile, runtimeDir: folder, values });
      const written = Date.now();
      // Nothing instrumented records nothing: the suite run would cost its time for no record.
      if (functions.size === 0)
        return { records: [], functions, gate: null, spent: { writeMs: written - started, suiteMs: 0, readMs: 0 } };
      const gate = await (command ? suite.gateWith(dir, command, timeoutMs) : suite.gate(dir, timeoutMs)).catch(() => null);
      const ran = Date.now();
      const records = await readRecords(recordFile);
      return {
        records,
        functions,
        gate,
        spent: { writeMs: written - started, suiteMs: ran - written, readMs: Date.now() - ran },
      };
    },
  };
}

/** `paths` of `dir` moved into `hidden` while `work` runs, and back after. */
async function movedAside<T>(dir: string, hidden: string, paths: readonly string[], work: () => Promise<T>): Promise<T> {
  const moved: string[] = [];
  try {
    for (const path of paths) {
      await mkdir(dirname(join(hidden, path)), { recursive: true });
      const done = await rename(join(dir, path), join(hidden, path)).then(
        () => true,
        () => false,
      );
      if (done) moved.push(path);
    }
    return await work();
  } finally {
    // The plain process may have removed a folder a moved file was in.
    for (const path of moved)
      await mkdir(dirname(join(dir, path)), { recursive: true }).then(() => rename(join(hidden, path), join(dir, path)));
    await rm(hidden, { recursive: true, force: true });
  }
}

/** One run within what is left of the budget: none when less than a second is; `exhausted` when it ran out. */
export async function runWithin(
  checkout: ProbeCheckout,
  plan: VersionPlan,
  label: string,
  left: () => number,
  log: (line: string) => void,
  command?: string,
): Promise<{ run: ProbeRun | null; exhausted: boolean }> {
  if (left() < 1000) return { run: null, exhausted: true };
  log(`assessment: ${label}${command ? `: ${command}` : ''}`);
  const run = await checkout.run(plan, label, left(), command);
  log(
    `assessment: ${label}: ${seconds(run.spent.writeMs)} writing the probed version, ${seconds(run.spent.suiteMs)} the suite, ${seconds(run.spent.readMs)} reading ${run.records.length} records`,
  );
  return { run, exhausted: run.gate !== null && !run.gate.passed && run.gate.reason === 'TIMEOUT' };
}

/** Each file of the plan written as that version has it, its probed functions instrumented. */
// Python writes no bytecode in the sandbox (PYTHONDONTWRITEBYTECODE), so a version written within the
// same second as another never runs the other's cached code.
async function writePlan(
  dir: string,
  plan: VersionPlan,
  where: { recordFile: string; runtimeDir: string; values: ChangeValues },
): Promise<Map<string, ProbedFunction>> {
  const functions = new Map<string, ProbedFunction>();
  for (const [path, { text, lines }] of plan.files) {
    const file = join(dir, path);
    if (text === null) {
      await rm(file, { force: true });
      continue;
    }
    let written = text;
    const language = probeLanguageOf(path);
    if (lines.size > 0 && language) {
      for (const { from, name } of language.runtimeFiles) await copyFile(from, join(where.runtimeDir, name));
      const instrumented = await instrument(language, text, lines, { path, ...where });
      if (instrumented) {
        written = instrumented.source;
        for (const fn of instrumented.functions) functions.set(fn.id, fn);
      }
    }
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, written);
  }
  return functions;
}

/** The file rewritten by its language's probe; null when it could not be (a file that does not parse, a probe that failed). */
async function instrument(
  language: ProbeLanguage,
  text: string,
  lines: ReadonlySet<number>,
  target: ProbeTarget,
): Promise<InstrumentedFile | null> {
  try {
    return await language.instrument(text, lines, target);
  } catch {
    return null;
  }
}

/** The records, one JSON object per line; a line a killed process left half written is skipped. */
async function readRecords(file: string): Promise<ProbeRecord[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  const records: ProbeRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const record = JSON.parse(line) as ProbeRecord;
      if (typeof record.fn === 'string' && typeof record.args === 'string' && record.out && typeof record.out === 'object')
        records.push(record);
    } catch {
      // A torn line: the process was killed while writing it.
    }
  }
  return records;
}
