// vitest's own code failing while it runs, not a test's: an "Unhandled Error" whose first stack frame
// is inside vitest's packages. Seen with vitest 5 on Node 20, whose default reporter calls
// `Map.groupBy` (Node 21+) as soon as it has a failure to print: every run of a red suite then ends
// that way, and a run would "repair" code for as long as its budget lasts (docs/design.md §1.6).
import { stripAnsi } from '../../formats/strip-ansi.ts';

/** The banner, then the error's line, then its first frame: `❯ fn path:line:col` or `❯ path:line:col`. */
const UNHANDLED = /⎯ Unhandled Error ⎯[^\n]*\n([^\n]+)\n\s*❯ (?:\S+ )?(\S+?):\d+:\d+/g;
const OWN_CODE = /(?:^|\/)node_modules\/(?:vitest|@vitest\/[^/]+)\//;

/** The error vitest raised in its own code ("TypeError: Map.groupBy is not a function"), or null. */
export function vitestOwnCrash(output: string): string | null {
  const text = stripAnsi(output);
  for (const match of text.matchAll(UNHANDLED)) {
    if (OWN_CODE.test(match[2] ?? '')) return `${(match[1] ?? '').trim()} (in ${match[2]})`;
  }
  return null;
}
