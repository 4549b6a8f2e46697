// Which call of the original's suite a patched call is, for the look from outside the runner
// (src/assess/outside-look.ts): the same function with the same arguments, on a receiver with the same
// fields. A patch that gives a class a field the original lacked (a rounding rule, a logger) leaves
// every method's receiver with one more field: such a call is the original's call on the same
// receiver once that field is set aside. Outside, each version's call is made on its own receiver (the
// original's module may not hold the function the new field names).
import type { ProbeRecord } from './probe-record.ts';

type Out = ProbeRecord['out'];

/** Results compare as the records write them: canonical texts, so equal values give equal text. */
export const same = (a: Out, b: Out): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Whether a call's record in each version shows one behaviour: by default, the same result. */
export type SameCall = (was: ProbeRecord, now: ProbeRecord) => boolean;
export const sameResult: SameCall = (was, now) => same(was.out, now.out);

/** One version's suite calls by function, arguments and receiver: each one's record, or null when it gave several results. */
export class SuiteCalls {
  private readonly byCall = new Map<string, ProbeRecord | null>();
  private readonly byArguments = new Map<string, string[]>();

  constructor(records: readonly ProbeRecord[]) {
    for (const record of records) {
      if (record.kind !== 'suite') continue;
      // Calls of a method with the same arguments on receivers with other fields are other calls.
      const key = callKey(record, record.replayThis);
      const seen = this.byCall.get(key);
      if (seen === undefined) {
        this.byCall.set(key, record);
        if (record.replayThis !== undefined) this.receiversOf(record).push(record.replayThis);
      } else if (seen && !same(seen.out, record.out)) this.byCall.set(key, null);
    }
  }

  /** Each call once: its record, or null when it gave several results. */
  entries(): IterableIterator<[string, ProbeRecord | null]> {
    return this.byCall.entries();
  }

  /**
   * This version's call that is `other`'s: the same receiver's, else, for a receiver with more fields
   * than one of this version's had and the same values in those it shares, that one's. Undefined when
   * none is (a receiver left with other values is another call).
   */
  pairOf(other: ProbeRecord): ProbeRecord | null | undefined {
    const exact = this.byCall.get(callKey(other, other.replayThis));
    if (exact !== undefined || other.replayThis === undefined) return exact;
    const wider = fieldsOf(other.replayThis);
    if (!wider) return undefined;
    const narrower = this.receiversOf(other).find((fields) => {
      const own = fieldsOf(fields);
      return own !== null && widens(wider, own);
    });
    return narrower === undefined ? undefined : this.byCall.get(callKey(other, narrower));
  }

  private receiversOf(record: ProbeRecord): string[] {
    const key = `${record.fn}\0${record.args}`;
    let list = this.byArguments.get(key);
    if (!list) this.byArguments.set(key, (list = []));
    return list;
  }
}

function callKey(record: ProbeRecord, receiver: string | undefined): string {
  return `${record.fn}\0${record.args}\0${receiver ?? ''}`;
}

/** probe-replay.cjs's `TAG`: the key of a value written as something JSON has no literal for. */
const TAGGED = '$fixloop';

/** A receiver's fields, each as its JSON text; null for a receiver written otherwise (a constructor call). */
function fieldsOf(text: string): Map<string, string> | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value) || TAGGED in value) return null;
    return new Map(Object.entries(value).map(([key, field]) => [key, JSON.stringify(field)]));
  } catch {
    return null;
  }
}

/** Whether `wider` has every field of `narrower`, with its value, and more. */
function widens(wider: Map<string, string>, narrower: Map<string, string>): boolean {
  if (wider.size <= narrower.size) return false;
  for (const [key, value] of narrower) if (wider.get(key) !== value) return false;
  return true;
}
