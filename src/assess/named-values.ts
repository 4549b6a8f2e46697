// Whether a generated input only gives an argument a value the patch names itself (change-values.ts):
// a lookup of the tests' literals changes at each of its keys, the failing tests' and the others it
// lists beside them, so a neighbour that changed there shows the table, not a rule that generalizes
// (special-case.ts). A number's sign is not told apart: a literal `-40` is read as `40` by some
// languages' parsers of the changed lines.
import { argumentSlots, literalValue } from './argument-slots.ts';
import type { ChangeValues } from './change-values.ts';

/** The arguments `neighbour` gives other values than `call` does, each such value one the patch names. */
export function variesOnlyToNamedValues(call: string, neighbour: string, values: ChangeValues): boolean {
  const base = argumentSlots(call);
  const varied = [...argumentSlots(neighbour)].filter(([slot, value]) => base.get(slot) !== value);
  return varied.length > 0 && varied.every(([, value]) => isNamed(literalValue(value), values));
}

function isNamed(value: number | string | null, values: ChangeValues): boolean {
  if (typeof value === 'number') return values.numbers.some((n) => Math.abs(n) === Math.abs(value));
  return value !== null && values.strings.includes(value);
}
