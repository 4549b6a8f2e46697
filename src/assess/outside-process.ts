// Calls made in a plain process of the program's language (docs/design.md §3.3): no runner loaded,
// no runner variable, no test on the command line, each call with the arguments a suite call had
// (exact data only: ProbeRecord.replay). The look from outside the runner makes the calls the patch
// changed on each version as it ships (outside-look.ts); the screen of rival patches makes them on
// each one-edit candidate (rival-screen.ts). One process per language per version, bounded.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { PROBE_FOLDER } from './probe-checkout.ts';
import type { OutsideCalls } from './probe-language.ts';
import { probeLanguageOf } from './probe-languages.ts';
import type { ProbeRecord } from './probe-record.ts';
import { shellQuote } from '../sandbox/shell-quote.ts';

/** Each process's time, within what is left of the assessment's. */
const PROCESS_MS = 30_000;
/**
 * The plain process runs without the variable the sandbox sets for the test runners to say "this is
 * a CI run" (sandbox/environment.ts): a program as its users run it has none, and a fix made only
 * where it is set is a fix made only for the tests. The variables that keep the runners' output
 * plain stay: a call whose result depends on them gives the original another result outside, and
 * is not counted (lookFromOutside), where a fix to colour handling would be refused for nothing.
 */
const AS_A_USER_RUNS_IT = 'env -u CI';
const CALLS_FILE = 'outside-calls.json';
const RESULTS_FILE = 'outside-results.jsonl';

export type Out = ProbeRecord['out'];

/** What each call gave in the plain process: its result, or null when it gave none. */
export type Outcomes = Array<Out | null>;

/** One call to make: the function's file (relative to the checkout) and name, and the suite call's exact data. */
export interface PlainCall {
  path: string;
  name: string;
  args: string | undefined;
  this?: string;
}

export interface PlainProcessAt {
  /** The checkout, as the version to call has it. */
  dir: string;
  suite: SuiteRunner;
  left: () => number;
  log: (line: string) => void;
  /** Says which version the log lines are about. */
  version: string;
  /**
   * Made with each language's deployed settings (OutsideCalls.deployedSettings) on top: a language
   * with none makes no call then.
   */
  deployed?: boolean;
}

/** The language's plain process for a file, or null when its language has none. */
export function outsideOf(path: string): OutsideCalls | null {
  return probeLanguageOf(path)?.outside ?? null;
}

/** Each call made by its language's plain process in `at.dir` as it is. */
export async function plainCalls(at: PlainProcessAt, calls: readonly PlainCall[]): Promise<Outcomes> {
  const folder = join(at.dir, PROBE_FOLDER);
  await mkdir(folder, { recursive: true });
  const outcomes: Outcomes = calls.map(() => null);
  const languages = new Map<OutsideCalls, number[]>();
  for (const [i, call] of calls.entries()) {
    const outside = outsideOf(call.path);
    if (outside && (!at.deployed || outside.deployedSettings)) languages.set(outside, [...(languages.get(outside) ?? []), i]);
  }
  for (const [outside, indexes] of languages) {
    if (at.left() < 1000) break;
    for (const { from, name } of outside.files) await copyFile(from, join(folder, name));
    await writeFile(join(folder, CALLS_FILE), JSON.stringify(indexes.map((i) => calls[i])));
    await rm(join(folder, RESULTS_FILE), { force: true });
    const settings = at.deployed ? settingsWords(outside.deployedSettings ?? {}) : '';
    const command = `${AS_A_USER_RUNS_IT}${settings} ${outside.command({
      testCommand: at.suite.testCommand,
      folder: PROBE_FOLDER,
      calls: CALLS_FILE,
      results: RESULTS_FILE,
    })}`;
    const result = await at.suite.plain(at.dir, command, Math.min(PROCESS_MS, at.left()));
    const which = `${at.version}${settings ? `,${settings}` : ''}`;
    if (result.exitCode !== 0)
      at.log(
        `assessment: the plain process (${which}) ended ${result.timedOut ? 'at its time limit' : `with exit ${result.exitCode ?? result.signal}`}`,
      );
    const { results, missing } = await resultsOf(join(folder, RESULTS_FILE), indexes.length);
    for (const [j, out] of results.entries()) outcomes[indexes[j]!] = out;
    // Why a call gave nothing (a file plain node cannot load, a name no export has), once: the log says what the process did not reach.
    if (missing) at.log(`assessment: outside the runner, ${which}: ${missing.slice(0, 300)}`);
  }
  return outcomes;
}

/** ` NAME=value …` for `env`, each value quoted for the shell. */
function settingsWords(settings: Readonly<Record<string, string>>): string {
  return Object.entries(settings)
    .map(([name, value]) => ` ${name}=${shellQuote(value)}`)
    .join('');
}

/**
 * Each call's result as the records write it (`{"returned":"…"}`), by its place in the calls file;
 * and the first reason a call gave none, as the process wrote it.
 */
async function resultsOf(file: string, count: number): Promise<{ results: Outcomes; missing: string | null }> {
  const results: Outcomes = Array.from({ length: count }, () => null);
  let missing: string | null = null;
  const text = await readFile(file, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    try {
      const { i, out, missing: why } = JSON.parse(line) as { i?: unknown; out?: unknown; missing?: unknown };
      if (typeof i !== 'number' || i < 0 || i >= count) continue;
      if (isOut(out)) results[i] = out;
      else if (typeof why === 'string') missing ??= why;
    } catch {
      // A line the process left half written when it was stopped: that call gave nothing.
    }
  }
  return { results, missing };
}

function isOut(value: unknown): value is Out {
  if (typeof value !== 'object' || value === null) return false;
  const given = value as { returned?: unknown; threw?: unknown };
  return typeof given.returned === 'string' || typeof given.threw === 'string';
}
