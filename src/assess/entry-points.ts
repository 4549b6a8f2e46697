// The assessment's second way to look (docs/design.md §3.3): when the suite never reaches a changed
// function (the patch changes a table, a regular expression or a constant that code elsewhere reads,
// or a function the suite calls only through other code), the functions the failing tests call are
// probed instead, in every version: the patch's effect reaches the program through them.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestCaseResult } from '../core/test-report.ts';
import { importedInOrder } from '../core/imported-files.ts';
import type { EntrySources } from './entry-sources.ts';
import type { VersionPlan } from './probe-plan.ts';
import { PROBE_LANGUAGES } from './probe-languages.ts';
import { repositoryFiles } from '../workspace/repository-files.ts';
import { lineChanges, mapOldLine } from './patched-versions.ts';

/** At most this many functions are probed as entry points: each records every call the suite makes. */
const MAX_ENTRY_FUNCTIONS = 12;

export interface EntryInput {
  dir: string;
  fixed: readonly TestCaseResult[];
  isTestFile: (path: string) => boolean;
  /** Files some version changes: they are probed where they changed, and here only with `inTouched`. */
  touched: ReadonlySet<string>;
  /**
   * Take entry functions in the changed files too: the public function beside the changed one takes
   * plain data where the changed functions' calls could not be varied; and a patch that changed
   * nothing its functions return (a writer of the module's or a closure's state) shows through the
   * reader beside it, which the failing tests call (a clock's setter and the `hrtime` that reads it).
   */
  inTouched?: boolean;
  /**
   * The original texts of the files some version changes: the checkout holds whichever version ran
   * there last, instrumented, so an entry function's lines are read from these.
   */
  originals?: ReadonlyMap<string, string | null>;
}

/** Path → the first lines of the entry functions there (at most MAX_ENTRY_FUNCTIONS in all). */
export async function entryPoints(input: EntryInput): Promise<Map<string, Set<number>>> {
  const files = await repositoryFiles(input.dir);
  const sources: EntrySources = {
    read: async (path) =>
      input.originals?.has(path)
        ? (input.originals.get(path) ?? null)
        : readFile(join(input.dir, path), 'utf8').catch(() => null),
    testFiles: async () => files.filter(input.isTestFile),
    imported: async (testFiles, levels) =>
      (await importedInOrder(input.dir, testFiles, files, input.isTestFile, levels)).filter(
        (path) => input.inTouched || !input.touched.has(path),
      ),
  };
  const found = new Map<string, Set<number>>();
  for (const language of PROBE_LANGUAGES)
    for (const [path, lines] of await language.entryPoints(input.fixed, sources)) found.set(path, lines);
  const capped = new Map<string, Set<number>>();
  let left = MAX_ENTRY_FUNCTIONS;
  // In the order they were found: the modules the test files import before those they import in turn.
  for (const [path, lines] of found) {
    const kept = [...lines].sort((a, b) => a - b).slice(0, left);
    if (kept.length === 0) break;
    capped.set(path, new Set(kept));
    left -= kept.length;
  }
  return capped;
}

/**
 * Each plan with the entry functions added: a file no version changes as it is in the original (the
 * checkout never had another version of it); in a file a version changes, the entry lines (of the
 * original plan's text) where that version has them.
 */
export async function withEntryPoints(
  plans: { original: VersionPlan; versions: VersionPlan[] },
  entries: ReadonlyMap<string, Set<number>>,
  dir: string,
): Promise<{ original: VersionPlan; versions: VersionPlan[] }> {
  const originals = new Map<string, string>();
  for (const path of entries.keys())
    originals.set(path, plans.original.files.get(path)?.text ?? (await readFile(join(dir, path), 'utf8')));
  const add = (plan: VersionPlan): VersionPlan => {
    const files = new Map(plan.files);
    for (const [path, lines] of entries) {
      const original = originals.get(path) ?? '';
      const own = plan.files.get(path);
      if (!own) files.set(path, { text: original, lines });
      else if (own.text !== null)
        files.set(path, { text: own.text, lines: new Set([...own.lines, ...movedLines(original, own.text, lines)]) });
    }
    return { name: plan.name, files };
  };
  return { original: add(plans.original), versions: plans.versions.map(add) };
}

/** The original's `lines` where `text` has them (a line the version changed is left out). */
function movedLines(original: string, text: string, lines: ReadonlySet<number>): number[] {
  if (original === text) return [...lines];
  const { hunks } = lineChanges(original, text);
  return [...lines].flatMap((line) => {
    const moved = mapOldLine(hunks, line);
    return moved === null ? [] : [moved];
  });
}
