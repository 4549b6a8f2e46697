// Where two versions of the program behave differently, from what their probes recorded: a call
// the suite made in both with the same arguments that returned or threw something else, and an
// input generated in both around such a call with another result. Calls only one version made are
// not compared (the versions called differently; the changed results upstream of them are found).
import type { BehaviourChange } from '../../core/assessment.ts';
import type { ProbeRecord, ProbedFunction } from './probe-record.ts';

/** A version's records, indexed by function and arguments. */
export interface RecordIndex {
  suite: Map<string, { outs: Set<string>; site?: string }>;
  generated: Map<string, { out: string; base: string }>;
  /** Calls the suite made, in all (a key may be called many times). */
  suiteCalls: number;
}

const SEP = '\u0000';

/** A call's result as one text: what it returned or threw, and its arguments after it when they changed. */
export function outcomeText(record: ProbeRecord): string {
  const out = 'returned' in record.out ? record.out.returned : `throws ${record.out.threw}`;
  return record.after !== undefined ? `${out} (arguments after: ${record.after})` : out;
}

export function indexRecords(records: ProbeRecord[]): RecordIndex {
  const index: RecordIndex = { suite: new Map(), generated: new Map(), suiteCalls: 0 };
  for (const record of records) {
    const key = record.fn + SEP + record.args;
    if (record.kind === 'suite') {
      index.suiteCalls++;
      const seen = index.suite.get(key) ?? { outs: new Set<string>() };
      seen.outs.add(outcomeText(record));
      if (seen.site === undefined && record.site !== undefined) seen.site = record.site;
      index.suite.set(key, seen);
    } else if (!index.generated.has(key)) {
      index.generated.set(key, { out: outcomeText(record), base: record.fn + SEP + (record.base ?? '') });
    }
  }
  return index;
}

/**
 * Where a change is expected: the calls the failing tests made, and the inputs generated around
 * them (keys of function and arguments). An input generated around a passing test's call that is
 * also one generated around a failing test's is near the failing tests too: the suite's calls are
 * neighbours of each other (`0` is generated around every number).
 */
export function nearKeys(records: ProbeRecord[]): Set<string> {
  return new Set(records.map((r) => r.fn + SEP + r.args));
}

/** The same, for records told apart by who called: the failing tests' calls and what was generated around them. */
export function nearKeysOf(records: ProbeRecord[], fromFailing: (record: ProbeRecord) => boolean): Set<string> {
  const calls = records.filter((r) => r.kind === 'suite' && fromFailing(r));
  const bases = new Set(calls.map((r) => r.fn + SEP + r.args));
  return nearKeys([...calls, ...records.filter((r) => r.kind === 'generated' && bases.has(r.fn + SEP + (r.base ?? '')))]);
}

export interface Differences {
  changes: BehaviourChange[];
  /** Generated inputs compared (present in both versions and not a suite call of either). */
  generatedCompared: number;
}

/**
 * The changes from `before` to `after`. `failingKeys` (see `nearKeys`): a call among them, or an
 * input generated around one, is `nearFailing`.
 */
export function compareVersions(before: RecordIndex, after: RecordIndex, functions: Map<string, ProbedFunction>, failingKeys: ReadonlySet<string>): Differences {
  const changes: BehaviourChange[] = [];
  for (const [key, was] of before.suite) {
    const now = after.suite.get(key);
    if (!now || sameSet(was.outs, now.outs)) continue;
    const site = now.site ?? was.site;
    changes.push({ kind: 'suite', ...described(key, functions), before: joined(was.outs), after: joined(now.outs), ...(site ? { test: site } : {}), nearFailing: failingKeys.has(key) });
  }
  let generatedCompared = 0;
  for (const [key, was] of before.generated) {
    const now = after.generated.get(key);
    if (!now || before.suite.has(key) || after.suite.has(key)) continue;
    generatedCompared++;
    if (now.out === was.out) continue;
    changes.push({ kind: 'generated', ...described(key, functions), before: was.out, after: now.out, nearFailing: failingKeys.has(key) || failingKeys.has(was.base) });
  }
  return { changes: ordered(changes), generatedCompared };
}

/** The function's name, its place and the call as code, from a record key. */
function described(key: string, functions: Map<string, ProbedFunction>): { function: string; location: string; input: string } {
  const at = key.indexOf(SEP);
  const id = key.slice(0, at);
  const args = key.slice(at + 1);
  const fn = functions.get(id);
  const name = fn?.name ?? id.slice(id.indexOf('#') + 1);
  return { function: name, location: fn ? `${fn.path}:${fn.line}` : id.slice(0, id.indexOf('#')), input: `${name.split('.').at(-1) ?? name}(${args})` };
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

function joined(outs: Set<string>): string {
  return [...outs].join(' | ');
}

/** Outside the failing tests first, the suite's own calls before generated inputs, then by function and input. */
function ordered(changes: BehaviourChange[]): BehaviourChange[] {
  const rank = (c: BehaviourChange) => (c.nearFailing ? 2 : 0) + (c.kind === 'generated' ? 1 : 0);
  return changes.sort((a, b) => rank(a) - rank(b) || a.function.localeCompare(b.function) || a.input.length - b.input.length || a.input.localeCompare(b.input));
}
