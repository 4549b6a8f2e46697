// Where two versions behave differently, from their probes' records: a call the suite made in both
// (same test, arguments and position: paired-calls.ts) that returned or threw something else, and an
// input generated in both around such a call with another result. Calls only one version made are not
// compared; what differs between two runs of one version is noise (same-version-noise.ts).
import type { BehaviourChange } from '../core/assessment.ts';
import { isFieldChange } from './argument-slots.ts';
import { likeFailing } from './input-likeness.ts';
import { errorKind, failsAfterFix, fixErrors, fixThrows } from './new-failures.ts';
import { pathLike } from './path-likeness.ts';
import type { ProbeRecord, ProbedFunction } from './probe-record.ts';
import { pairedChanges } from './paired-calls.ts';
import { NO_NOISE, type Noise } from './same-version-noise.ts';
import { generalized } from './text-edits.ts';
import { ordered } from './change-order.ts';

/** A version's records: the suite's calls by function, arguments and test, their results in call order (paired-calls.ts); the generated ones by function and arguments. */
export interface RecordIndex {
  suite: Map<string, { outs: string[]; site?: string; test?: string }>;
  generated: Map<string, { out: string; base: string; path?: number[] }>;
  /** The paths the suite's calls took, by function, with the call (as `suite` keys it) that took each. */
  suitePaths: Map<string, Array<{ call: string; path: number[] }>>;
  /** Function and arguments of every suite call (to leave generated inputs the suite also made out). */
  suiteArgs: Set<string>;
  /** Calls the suite made, in all (a key may be called many times). */
  suiteCalls: number;
}

/**
 * Which test made a call: pytest's test id (Python's `site`), or the chain of frames in the
 * repository's test files (a helper, the test's own line), else the first caller outside the probed
 * file. Not the caller alone: every test's call of a shared helper comes from the helper's line,
 * whatever options the test passed it.
 */
function testOf(record: ProbeRecord): string {
  return record.testLines && record.testLines.length > 0 ? record.testLines.join(' < ') : (record.site ?? '');
}

/** A suite call's key in one version's records: its function, arguments and test. */
export function suiteKey(record: ProbeRecord): string {
  return record.fn + SEP + record.args + SEP + testOf(record);
}

const SEP = '\u0000';

/** A call's function and arguments, as `NearFailing.keys` holds them. */
export function nearKey(record: Pick<ProbeRecord, 'fn' | 'args'>): string {
  return record.fn + SEP + record.args;
}

/** What a call returned or threw, as a behaviour change shows it: `false`, `throws TypeError: …`. */
export function resultText(out: ProbeRecord['out']): string {
  return 'returned' in out ? out.returned : `throws ${out.threw}`;
}

/** A call's result as one text: what it returned or threw, and its arguments and receiver after it when they changed. */
export function outcomeText(record: ProbeRecord): string {
  const out = resultText(record.out);
  const after = record.after !== undefined ? ` (arguments after: ${record.after})` : '';
  const receiver = record.thisAfter !== undefined ? ` (this after: ${record.thisAfter})` : '';
  return `${out}${after}${receiver}`;
}

export function indexRecords(records: ProbeRecord[]): RecordIndex {
  const index: RecordIndex = {
    suite: new Map(),
    generated: new Map(),
    suitePaths: new Map(),
    suiteArgs: new Set(),
    suiteCalls: 0,
  };
  const pathsSeen = new Set<string>();
  for (const record of records) {
    const key = record.fn + SEP + record.args;
    if (record.kind === 'suite') {
      const callKey = suiteKey(record);
      index.suiteCalls++;
      const pathKey = record.path && callKey + SEP + record.path.join(',');
      if (record.path && pathKey && !pathsSeen.has(pathKey)) {
        pathsSeen.add(pathKey);
        pushTo(index.suitePaths, record.fn, { call: callKey, path: record.path });
      }
      const seen = index.suite.get(callKey) ?? { outs: [] };
      seen.outs.push(outcomeText(record));
      if (seen.site === undefined && record.site !== undefined) seen.site = record.site;
      // The test's own line, for the reviewer, when code between it and the function hides it from `site`.
      if (seen.test === undefined && record.testLines?.[0] !== undefined) seen.test = record.testLines[0];
      index.suite.set(callKey, seen);
      index.suiteArgs.add(key);
    } else if (!index.generated.has(key)) {
      index.generated.set(key, {
        out: outcomeText(record),
        base: record.fn + SEP + (record.base ?? ''),
        ...(record.path ? { path: record.path } : {}),
      });
    }
  }
  return index;
}

/** Where a change is expected: the failing tests' calls, the inputs generated around them, their arguments per function (`inputs`). */
export interface NearFailing {
  /** The failing tests' calls, as `RecordIndex.suite` keys them (with their test). */
  calls: Set<string>;
  /** Function and arguments of their calls and of the inputs generated around them. */
  keys: Set<string>;
  around: Map<string, string[]>; // function and arguments of each failing call → those of the inputs generated around it
  inputs: Map<string, string[]>;
  /** The paths their calls took through each function, in the original program. */
  paths: Map<string, number[][]>;
  /** What their calls threw in the original program, by function (`throws IndexError: …`): the bug's own failure. */
  failures: Map<string, Set<string>>;
}

/**
 * Whether a generated input is near the call it was generated around: a held object's field set
 * otherwise on a call with no argument (a method called bare, probe-fields.cjs) is not, since that
 * call's text, shared by every bare call of the method, does not say which object it held.
 */
function anchored(args: string, base: string | undefined): boolean {
  return !!base || !isFieldChange(args);
}

/**
 * From the records of a run of the failing tests alone, or of the whole suite with `fromFailing`
 * telling the failing tests' calls (by who called). An input generated around a passing test's call
 * that is also generated around a failing test's is near too: `0` is generated around every number.
 */
export function nearFailingOf(records: ProbeRecord[], fromFailing: (record: ProbeRecord) => boolean = () => true): NearFailing {
  const calls = records.filter((r) => r.kind === 'suite' && fromFailing(r));
  const bases = new Set(calls.map((r) => r.fn + SEP + r.args));
  const around = records.filter(
    (r) => r.kind === 'generated' && bases.has(r.fn + SEP + (r.base ?? '')) && anchored(r.args, r.base),
  );
  const inputs = new Map<string, string[]>();
  const paths = new Map<string, number[][]>();
  const failures = new Map<string, Set<string>>();
  const aroundOf = new Map<string, string[]>();
  for (const r of around) pushTo(aroundOf, r.fn + SEP + (r.base ?? ''), r.fn + SEP + r.args);
  for (const call of calls) {
    inputs.set(call.fn, [...new Set([...(inputs.get(call.fn) ?? []), call.args])]);
    if (call.path) pushTo(paths, call.fn, call.path);
    if ('threw' in call.out) failures.set(call.fn, (failures.get(call.fn) ?? new Set()).add(outcomeText(call)));
  }
  return {
    calls: new Set(calls.map(suiteKey)),
    keys: new Set([...calls, ...around].map(nearKey)),
    around: aroundOf,
    inputs,
    paths,
    failures,
  };
}

/** Appends to the list kept under `key` (a suite may call one function thousands of times). */
function pushTo<T>(lists: Map<string, T[]>, key: string, item: T): void {
  const list = lists.get(key);
  if (list) list.push(item);
  else lists.set(key, [item]);
}

export interface Differences {
  changes: BehaviourChange[];
  /** Generated inputs compared (present in both versions and not a suite call of either). */
  generatedCompared: number;
  /** Those of them that vary an argument, not only a held object's field (probe-fields.cjs). */
  argumentsVaried: number;
  /** Calls and generated inputs left out: their results varied between runs of one version beyond what a mask covers. */
  unstable: number;
}

/**
 * The changes from `before` to `after`, those near the failing tests (`NearFailing`) marked so. A
 * suite call is near when a failing test made it, or another test made it with a failing test's
 * arguments and it changed just as that call did (the fix, seen twice). A generated input is near
 * when generated around a failing test's call, like one of their inputs, failed in the original as a
 * failing test's call did, or changed only by the text edits the changes near them made (the fix
 * generalizing: text-edits.ts); unless the original ran it as it ran a passing test (its path
 * strictly closer to a passing test's than to any failing test's: the tests say that result was
 * right) or the patch now throws on it (new-failures.ts). A path like the failing tests' alone does
 * not make it near: `isAbsolute('usr/lib')` runs as the failing `isAbsolute('C:\\x')` does.
 */
export function compareVersions(
  before: RecordIndex,
  after: RecordIndex,
  functions: Map<string, ProbedFunction>,
  near: NearFailing,
  noise: Noise = NO_NOISE,
): Differences {
  const changes: BehaviourChange[] = [];
  let unstable = 0;
  const failingChanges = changesAtFailingCalls(before, after, near, noise);
  const errors = fixErrors(failingChanges);
  const elsewhere: number[] = []; // changes that may be the fix generalizing (text-edits.ts)
  for (const [key, was] of before.suite) {
    const now = after.suite.get(key);
    if (!now) continue;
    if (noise.unstable.has(key)) {
      unstable++;
      continue;
    }
    const site = now.test ?? was.test ?? now.site ?? was.site;
    for (const paired of pairedChanges(was.outs, now.outs, (a, b) => noise.same(key, a, b))) {
      // Another test's call with a failing test's arguments that changed exactly as that test's call did: the fix itself, seen
      // twice; or one that now throws the error the fix made their calls throw, which its test accepted (new-failures.ts).
      const nearFailing =
        near.calls.has(key) ||
        (failingChanges.get(withoutTest(key))?.has(paired.before + SEP + paired.after) ?? false) ||
        errors.has(errorKind(paired.after) ?? '');
      changes.push({ kind: 'suite', ...described(key, functions), ...paired, ...(site ? { test: site } : {}), nearFailing });
    }
  }
  let generatedCompared = 0;
  let argumentsVaried = 0;
  const like = pathLike(before, near);
  const fixMakesThrow = fixThrows(failingChanges);
  for (const [key, was] of before.generated) {
    const now = after.generated.get(key);
    if (!now || before.suiteArgs.has(key) || after.suiteArgs.has(key)) continue;
    if (noise.unstable.has(key)) {
      unstable++;
      continue;
    }
    generatedCompared++;
    const args = key.slice(key.indexOf(SEP) + 1);
    if (!isFieldChange(args)) argumentsVaried++;
    if (noise.same(key, was.out, now.out)) continue;
    const [fn = '', base = ''] = was.base.split(SEP);
    const side = like(fn, was.path);
    // The original failed on it as it failed on a failing test's call: the bug's own class of input.
    const sameFailure = near.failures.get(fn)?.has(was.out) ?? false;
    const eligible = side !== 'passing' && !failsAfterFix(was.out, now.out, sameFailure, fixMakesThrow);
    const nearBase = anchored(args, base) && (near.keys.has(was.base) || likeFailing(args, base, near.inputs.get(fn) ?? []));
    const nearFailing = eligible && (near.keys.has(key) || nearBase || sameFailure);
    if (eligible && !nearFailing) elsewhere.push(changes.length);
    changes.push({
      kind: 'generated',
      ...described(key, functions),
      before: was.out,
      after: now.out,
      nearFailing,
      ...(side ? { pathLike: side } : {}),
    });
  }
  generalized(changes, elsewhere);
  return { changes: ordered(changes), generatedCompared, argumentsVaried, unstable };
}

/**
 * Where another plausible patch gives other results than the chosen one: compared as the chosen
 * patch was with the original (`after` is the chosen one's records), so a suite call near the
 * failing tests is one of their own calls, whose test accepts both results.
 */
export function disagreementsWith(
  after: RecordIndex,
  records: ProbeRecord[],
  functions: Map<string, ProbedFunction>,
  near: NearFailing,
  noise: Noise = NO_NOISE,
): Array<{ input: string; chosen: string; alternative: string; atFailingTests?: true }> {
  return compareVersions(after, indexRecords(records), functions, near, noise).changes.map((c) => ({
    input: c.input,
    chosen: c.before,
    alternative: c.after,
    ...(c.kind === 'suite' && c.nearFailing ? { atFailingTests: true as const } : {}),
  }));
}

/** Function and arguments of a suite key (the test left out). */
const withoutTest = (key: string): string => key.slice(0, key.lastIndexOf(SEP));

/** Function and arguments → how the failing tests' calls with them changed (`before SEP after`). */
function changesAtFailingCalls(
  before: RecordIndex,
  after: RecordIndex,
  near: NearFailing,
  noise: Noise,
): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const key of near.calls) {
    const was = before.suite.get(key);
    const now = after.suite.get(key);
    if (!was || !now) continue;
    const call = withoutTest(key);
    for (const paired of pairedChanges(was.outs, now.outs, (a, b) => noise.same(key, a, b)))
      found.set(call, (found.get(call) ?? new Set()).add(paired.before + SEP + paired.after));
  }
  return found;
}

/** The function's name, its place and the call as code, from a record key. */
function described(key: string, functions: Map<string, ProbedFunction>): { function: string; location: string; input: string } {
  const [id = '', args = ''] = key.split(SEP);
  const fn = functions.get(id);
  const name = fn?.name ?? id.slice(id.indexOf('#') + 1);
  return {
    function: name,
    location: fn ? `${fn.path}:${fn.line}` : id.slice(0, id.indexOf('#')),
    input: `${name.split('.').at(-1) ?? name}(${args})`,
  };
}
