// A fix generalizes; a special case does not (docs/design.md §3.3). A patch whose behaviour changes
// at the failing tests' own calls and at none of the inputs generated around them answers the tests,
// not the bug: a lookup of the tests' literals, code that reads the expected values. A fix of one
// boundary changes one input too (`n > 10` → `n >= 10` changes only `10` among the integers), but
// there a region moved: the failing input now goes the way of its neighbour on one side (the same
// path through the function, else the same result) where it went the way of its neighbour on the
// other side. An input that goes neither neighbour's way in the patched program is an isolated point.
// A lookup keyed on one argument (`if string == "X(hi)X"`) also changes the neighbours that vary
// another argument and keep that literal: the change then follows the literal when every neighbour
// that gives that argument another value is unchanged (argument-slots.ts says which one it varied).
// A generated input that spells one of the failing input's strings otherwise (`'1H30M'`, `' 1h30m'`)
// and goes the failing input's way in both versions (the function lower-cases or trims) is that input,
// not a neighbour: a lookup keyed on the normalized literal changes there too. A neighbour that
// changed at a value the patch names itself (a table's other keys) is not counted (named-values.ts).
import type { SpecialCase } from '../core/assessment.ts';
import { argumentSlots, isDistinctLiteral } from './argument-slots.ts';
import { NO_CHANGE_VALUES, type ChangeValues } from './change-values.ts';
import { variesOnlyToNamedValues } from './named-values.ts';
import type { NearFailing, RecordIndex } from './compare-records.ts';
import { numericSlotOffset } from './numeric-distance.ts';
import { pairedChanges } from './paired-calls.ts';
import type { Noise } from './same-version-noise.ts';

/** Fewer neighbours compared than this say too little to call a change isolated. */
const MIN_NEIGHBOURS = 5;
const SEP = '\u0000';

/** How one input went in one version: its path through the function where traced, and its result. */
interface Way {
  path?: string;
  out: string;
}

/**
 * Null unless every changed failing call with neighbours changed alone (or with the neighbours that
 * keep one argument's literal only), and no boundary moved.
 */
export function specialCaseOf(
  before: RecordIndex,
  after: RecordIndex,
  near: NearFailing,
  noise: Noise,
  values: ChangeValues = NO_CHANGE_VALUES,
): SpecialCase | null {
  const inputs = new Set<string>();
  const keyedOn = new Set<string>();
  const results = new Set<string>();
  let neighbours = 0;
  let sameInput = 0;
  let namedInputs = 0;
  const waysByFunction = new Map<string, ReturnType<typeof spelledWays>>();
  for (const key of near.calls) {
    const was = before.suite.get(key);
    const now = after.suite.get(key);
    if (!was || !now || noise.unstable.has(key)) continue;
    if (pairedChanges(was.outs, now.outs, (a, b) => noise.same(key, a, b)).length === 0) continue;
    const [fn = '', args = ''] = key.split(SEP);
    const at = { original: wayOf(before, key, was.outs), patched: wayOf(after, key, now.outs) };
    const around = neighboursOf(before, after, near, fn + SEP + args, noise);
    // A neighbour that spells a failing input of this function otherwise (another letter case, spaces
    // around a string) and that both versions take as that very input (its way before, its way after)
    // is that input: a lookup keyed on the normalized literal changes there as a fix would.
    const failingWays = waysByFunction.get(fn) ?? spelledWays(before, after, near, fn);
    waysByFunction.set(fn, failingWays);
    const distinct = around.filter((n) => {
      const way = n.changed ? failingWays.get(spellingOf(n.args)) : undefined;
      return !(way && alike(n.original, way.original) && alike(n.patched, way.patched));
    });
    sameInput += around.length - distinct.length;
    // A neighbour that changed at a value the patch names itself (a key of its table beside the
    // tests' own) says nothing of the inputs the table does not list: not counted either way.
    const unnamed = distinct.filter((n) => !(n.changed && variesOnlyToNamedValues(args, n.args, values)));
    namedInputs += distinct.length - unnamed.length;
    if (unnamed.length === 0) continue;
    const isolated = isolatedAmong(args, at, unnamed);
    if (!isolated) return null;
    if (isolated.keyedOn) keyedOn.add(isolated.keyedOn);
    inputs.add(
      `${
        fn
          .slice(fn.indexOf('#') + 1)
          .split('.')
          .at(-1) ?? fn
      }(${args})`,
    );
    neighbours += isolated.neighbours;
    for (const out of isolated.results) results.add(out);
  }
  const [oneResult] = results;
  return inputs.size > 0 && neighbours >= MIN_NEIGHBOURS
    ? {
        inputs: [...inputs],
        neighbours,
        ...(keyedOn.size > 0 ? { keyedOn: [...keyedOn] } : {}),
        ...(results.size === 1 && keyedOn.size === 0 && oneResult !== undefined ? { oneResult } : {}),
        ...(sameInput > 0 ? { sameInput } : {}),
        ...(namedInputs > 0 ? { namedInputs } : {}),
      }
    : null;
}

/**
 * The failing call `args` changed alone among `around` (no boundary moved), or alone among those that
 * give one of its arguments, a distinct literal, another value (at least MIN_NEIGHBOURS of them):
 * the neighbours that say so, and the argument; else null.
 */
function isolatedAmong(
  args: string,
  at: { original: Way; patched: Way },
  around: Neighbour[],
): { neighbours: number; keyedOn?: string; results: string[] } | null {
  if (!around.some((n) => n.changed))
    return boundaryMoved(args, at, around) ? null : { neighbours: around.length, results: around.map((n) => n.original.out) };
  for (const [slot, value] of argumentSlots(args)) {
    if (!isDistinctLiteral(value)) continue;
    const varied = around.filter((n) => argumentSlots(n.args).get(slot) !== value);
    if (varied.length < MIN_NEIGHBOURS || varied.some((n) => n.changed) || boundaryMoved(args, at, varied)) continue;
    const name = /^\d+$/.test(slot) ? `argument ${Number(slot) + 1}` : slot;
    // Neighbours keeping the literal changed: the change does reach other inputs, so flat results here say nothing less.
    return { neighbours: varied.length, keyedOn: `${name} = ${value}`, results: [] };
  }
  return null;
}

interface Neighbour {
  args: string;
  changed: boolean;
  original: Way;
  patched: Way;
}

/**
 * The inputs generated around the failing call `fn(args)` (as the failing tests' run made them) and
 * compared in both versions' suite runs, not calls the suite made itself.
 */
function neighboursOf(before: RecordIndex, after: RecordIndex, near: NearFailing, call: string, noise: Noise): Neighbour[] {
  const found: Neighbour[] = [];
  for (const key of new Set(near.around.get(call) ?? [])) {
    const was = before.generated.get(key);
    const now = after.generated.get(key);
    if (!was || !now || before.suiteArgs.has(key) || after.suiteArgs.has(key) || noise.unstable.has(key)) continue;
    found.push({
      args: key.slice(key.indexOf(SEP) + 1),
      changed: !noise.same(key, was.out, now.out),
      original: { out: was.out, ...(was.path ? { path: was.path.join(',') } : {}) },
      patched: { out: now.out, ...(now.path ? { path: now.path.join(',') } : {}) },
    });
  }
  return found;
}

/** White space at either end of a string's canonical text: spaces, and the escapes of line ends and tabs. */
const ENDS = /^(?:\s|\\[nrt])+|(?:\s|\\[nrt])+$/g;

/** A call's arguments with each string's letter case and the white space around it taken away. */
function spellingOf(args: string): string {
  return [...argumentSlots(args)]
    .map(([slot, value]) => `${slot}=${/^(['"]).*\1$/s.test(value) ? value.slice(1, -1).replace(ENDS, '').toLowerCase() : value}`)
    .join(SEP);
}

/** The ways the failing calls of `fn` went in both versions, by their spelling (spellingOf). */
function spelledWays(
  before: RecordIndex,
  after: RecordIndex,
  near: NearFailing,
  fn: string,
): Map<string, { original: Way; patched: Way }> {
  const ways = new Map<string, { original: Way; patched: Way }>();
  for (const key of near.calls) {
    const [name = '', args = ''] = key.split(SEP);
    const was = before.suite.get(key);
    const now = after.suite.get(key);
    if (name !== fn || !was || !now) continue;
    ways.set(spellingOf(args), { original: wayOf(before, key, was.outs), patched: wayOf(after, key, now.outs) });
  }
  return ways;
}

/** The way a suite call went: its one path when its calls took one, and its first result. */
function wayOf(index: RecordIndex, key: string, outs: readonly string[]): Way {
  const fn = key.slice(0, key.indexOf(SEP));
  const paths = new Set((index.suitePaths.get(fn) ?? []).filter((p) => p.call === key).map((p) => p.path.join(',')));
  const [path] = paths;
  return { out: outs[0] ?? '', ...(paths.size === 1 && path !== undefined ? { path } : {}) };
}

/** Two inputs went the same way: the same path where both were traced, else the same result. */
function alike(a: Way, b: Way): boolean {
  return a.path !== undefined && b.path !== undefined ? a.path === b.path : a.out === b.out;
}

/**
 * The failing input sits between two numeric neighbours (one number of the arguments lower, the
 * same one higher), went the way of one side in the original and goes the way of the other side now.
 */
function boundaryMoved(args: string, at: { original: Way; patched: Way }, around: Neighbour[]): boolean {
  const sides = around.flatMap((n) => {
    const offset = numericSlotOffset(args, n.args);
    return offset ? [{ ...offset, n }] : [];
  });
  return sides.some(
    (low) =>
      low.delta < 0 &&
      sides.some(
        (high) =>
          high.delta > 0 &&
          high.slot === low.slot &&
          ((alike(at.original, low.n.original) && alike(at.patched, high.n.patched)) ||
            (alike(at.original, high.n.original) && alike(at.patched, low.n.patched))),
      ),
  );
}
