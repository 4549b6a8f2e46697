// A condition as both languages' front ends describe it (JavaScript's @babel tree in js-facts.ts,
// Python's ast in weakening_facts.py): chains of `&&`/`and` and `||`/`or`, negations, boolean
// constants, and atoms compared by their text. What can be told from that shape alone is what
// `narrowing` tells: that the condition after a change holds less often than before (a conjunct
// added, a disjunct removed, `||` → `&&`, made `false`), or more often (the same read backwards).
// Comparisons (`<` → `<=`) are left alone: whether one holds less often depends on the values.

export type Cond =
  | { kind: 'and' | 'or'; items: Cond[]; text: string }
  | { kind: 'not'; item: Cond; text: string }
  | { kind: 'const'; value: boolean; text: string }
  | { kind: 'atom'; key: string; text: string };

/** What a change did to a condition, read in the direction that makes it hold less often. */
type Narrowing =
  { how: 'conjunct'; text: string; first: boolean } | { how: 'disjunct'; text: string } | { how: 'or-to-and' } | { how: 'const' };

/** A structural key: two conditions with the same key are the same condition. */
export function condKey(c: Cond): string {
  if (c.kind === 'atom') return c.key;
  if (c.kind === 'const') return String(c.value);
  if (c.kind === 'not') return `!(${condKey(c.item)})`;
  return `${c.kind}(${c.items.map(condKey).join(',')})`;
}

/** The operands of a chain of one operator (nested chains of the same operator flattened). */
function operands(c: Cond, kind: 'and' | 'or'): Cond[] {
  return c.kind === kind ? c.items.flatMap((i) => operands(i, kind)) : [c];
}

/** The items of `more` that `fewer` lacks, when `fewer`'s are all among them (as a multiset); else null. */
function added(fewer: Cond[], more: Cond[]): Cond[] | null {
  const left = more.map(condKey);
  const extra = [...more];
  for (const key of fewer.map(condKey)) {
    const at = left.indexOf(key);
    if (at < 0) return null;
    left.splice(at, 1);
    extra.splice(at, 1);
  }
  return extra.length > 0 ? extra : null;
}

/** How `after` holds less often than `before`, structurally; null when it cannot be told. */
function narrowing(before: Cond, after: Cond): Narrowing | null {
  if (after.kind === 'const' && !after.value && !(before.kind === 'const' && !before.value)) return { how: 'const' };
  const [ba, aa] = [operands(before, 'and'), operands(after, 'and')];
  const conjuncts = added(ba, aa);
  if (conjuncts)
    return {
      how: 'conjunct',
      text: conjuncts.map((c) => c.text).join(' && '),
      first: condKey(aa[0] ?? after) === condKey(conjuncts[0] ?? after),
    };
  const disjuncts = added(operands(after, 'or'), operands(before, 'or'));
  if (disjuncts) return { how: 'disjunct', text: disjuncts.map((c) => c.text).join(' || ') };
  if (
    before.kind === 'or' &&
    after.kind === 'and' &&
    before.items.length === after.items.length &&
    before.items.every((b, i) => condKey(b) === condKey(after.items[i] ?? b))
  )
    return { how: 'or-to-and' };
  // One operand of a chain changed, the rest equal: both operators are monotone, so the chain
  // narrows when the operand does; under a negation, when the operand widens.
  if (
    (before.kind === 'and' || before.kind === 'or') &&
    after.kind === before.kind &&
    before.items.length === after.items.length
  ) {
    const changed = before.items.map((b, i) => [b, after.items[i]] as const).filter(([b, a]) => a && condKey(a) !== condKey(b));
    const [pair] = changed;
    if (changed.length === 1 && pair?.[1]) return narrowing(pair[0], pair[1]);
  }
  if (before.kind === 'not' && after.kind === 'not') return narrowing(after.item, before.item);
  return null;
}

function words(n: Narrowing, direction: 'narrower' | 'wider'): string {
  const narrower = direction === 'narrower';
  if (n.how === 'const') return narrower ? 'made `false`' : 'made `true`';
  if (n.how === 'or-to-and') return narrower ? '`||` → `&&`' : '`&&` → `||`';
  if (n.how === 'conjunct')
    return `a conjunct ${narrower ? 'added' : 'removed'}: \`${n.first ? `${n.text} &&` : `&& ${n.text}`}\``;
  return `a disjunct ${narrower ? 'removed' : 'added'}: \`|| ${n.text}\``;
}

/** In words, how `after` holds less often than `before` (null when it does not, as far as the shape tells). */
export function narrows(before: Cond, after: Cond): string | null {
  const n = narrowing(before, after);
  return n ? words(n, 'narrower') : null;
}

/** In words, how `after` holds more often than `before`. */
export function widens(before: Cond, after: Cond): string | null {
  const n = narrowing(after, before);
  return n ? words(n, 'wider') : null;
}

/** A negation added or removed around the whole condition. */
export function negationChange(before: Cond, after: Cond): string | null {
  if (after.kind === 'not' && condKey(after.item) === condKey(before)) return 'a negation added';
  if (before.kind === 'not' && condKey(before.item) === condKey(after)) return 'a negation removed';
  return null;
}
