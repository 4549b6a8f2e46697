// Whether a plausible candidate weakens a check (docs/engines.md, "Ranking the plausible ones"),
// judged on the syntax tree of the changed file before and after, with one reason in words:
//   - a guard of a `throw`/`raise`, an error return or a reported error made to fire less often: a
//     conjunct added, a disjunct removed, `||` → `&&`, a negation added or removed, made constant;
//   - any condition made constant (`if (x)` → `if (false)`);
//   - a `throw`/`raise` removed;
//   - a call statement removed (a call with side effects).
// Only the shape is read: whether `<` → `<=` holds less often depends on the values, and is not judged.
import { JS_SOURCE } from '../../../core/js-parse.ts';
import { narrows, negationChange, widens } from './condition.ts';
import { jsFacts } from './js-facts.ts';
import { pythonFacts } from './py-facts.ts';
import { changedRanges, type SiteFacts } from './site-facts.ts';

/** One file of a candidate, before and after it. */
export interface FileChangeText {
  file: string;
  before: string;
  after: string;
}

/** The reason a candidate weakens a check, in one line; null when it does not, as far as the shape tells. */
export function weakeningOf(before: SiteFacts, after: SiteFacts): string | null {
  const thrown = removed(before.throws, after.throws);
  if (thrown) return `removes \`${thrown}\``;
  const b = before.condition;
  const a = after.condition;
  if (b && a && b.start === a.start && b.statement === a.statement) {
    if (b.guards) {
      const how = (b.guards.firesWhen ? narrows(b.test, a.test) : widens(b.test, a.test)) ?? negationChange(b.test, a.test);
      if (how) return `weakens the check that ${b.guards.check} (${how})`;
    }
    if (a.test.kind === 'const' && b.test.kind !== 'const')
      return `makes the condition of \`${b.statement}\` constant (\`${b.test.text}\` → \`${a.test.text}\`)`;
  }
  const call = removed(before.calls, after.calls);
  if (call) return `removes the call \`${call}\``;
  return null;
}

/** The first item of `before` that `after` has fewer of, when `after` has fewer items in all. */
function removed(before: readonly string[], after: readonly string[]): string | null {
  if (after.length >= before.length) return null;
  const left = [...after];
  for (const item of before) {
    const at = left.indexOf(item);
    if (at < 0) return item;
    left.splice(at, 1);
  }
  return null;
}

/** The reason for each change (null: not weakening, or a language whose tree is not read). */
export async function weakenings(changes: readonly FileChangeText[]): Promise<Array<string | null>> {
  const ranges = changes.map((c) => changedRanges(c.before, c.after));
  const python = changes.flatMap((c, i) => (c.file.endsWith('.py') ? [{ i, c }] : []));
  const pyFacts = await pythonFacts(
    python.flatMap(({ i, c }) => [
      { source: c.before, range: ranges[i]!.before },
      { source: c.after, range: ranges[i]!.after },
    ]),
  );
  const pyByIndex = new Map(python.map(({ i }, k) => [i, [pyFacts[2 * k] ?? null, pyFacts[2 * k + 1] ?? null] as const]));
  return changes.map((c, i) => {
    const range = ranges[i]!;
    const [before, after] =
      pyByIndex.get(i) ??
      (JS_SOURCE.test(c.file) ? [jsFacts(c.file, c.before, range.before), jsFacts(c.file, c.after, range.after)] : [null, null]);
    return before && after ? weakeningOf(before, after) : null;
  });
}
