// The files of a checkout that users do not get, which the look from outside the runner moves out
// while the plain process runs (outside-look.ts): what a published package's own packaging tool
// leaves out (packaged-files.ts), and what a git archive of the project leaves out
// (archive-files.ts). A fix kept in either is in the tests' checkout and not in what is installed.
import type { StaleBuild } from '../core/assessment.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { archiveLeavesOut } from './archive-files.ts';
import { builtCopies } from './built-copies.ts';
import { insideAny, installedFromCheckout } from './installed-from-checkout.ts';
import { packagedFiles } from './packaged-files.ts';
import { PROBE_FOLDER } from './probe-checkout.ts';
import type { ShippedFiles } from './probe-language.ts';
import { probeLanguageOf } from './probe-languages.ts';
import { staleBuilds, type ChangedFunction } from './stale-builds.ts';
import { writtenSince } from './written-since.ts';

export interface ShipsAt {
  /** The checkout, as the version to look at is written in it. */
  dir: string;
  suite: SuiteRunner;
  left: () => number;
  log: (line: string) => void;
  /**
   * Shared by the versions of one look: why the packaging tool could not list the original's files.
   * A listing that failed there (a build backend older than the project's configuration needs) is not
   * run again for a version that leaves every file but its changed functions' as they were: it would
   * fail the same way, and take as long, and the two versions are then looked at the same way.
   */
  listing?: { failed: string | null };
}

export interface Unshipped {
  /** The paths (relative) users do not get. */
  paths: string[];
  /** Build files the package ships that keep a changed function as it was (stale-builds.ts). */
  staleBuilds: StaleBuild[];
  /** Where the package's build, run just now, put each changed function (built-copies.ts: copyKey → file). */
  builtCopies: Map<string, string>;
  /** The files that build wrote, to be removed once the calls are made: each version is built afresh. */
  builtFiles: string[];
}

/**
 * What users do not get of a checkout whose changed calls are of `functions`, the version's own
 * changed files being `patched`: every file the package's tool does not list, when every call's
 * file is one it lists; and every file a git archive leaves out, when no call's file is one of those
 * (the calls could not be made from an archive at all). None where neither applies, or no time is left.
 */
export async function unshippedFiles(
  at: ShipsAt,
  functions: readonly ChangedFunction[],
  patched: ReadonlySet<string>,
): Promise<Unshipped> {
  if (at.left() < 2000) return { paths: [], staleBuilds: [], builtCopies: new Map(), builtFiles: [] };
  const callFiles = functions.map((fn) => fn.path);
  // Every file but the dependencies (those installed from the checkout's own folders too) and
  // fixloop's own folder; the test files and what the runs wrote are out already (withoutTests).
  const installed = await installedFromCheckout(at.dir);
  const present = (await writtenSince(at.dir, 0, new Set(['node_modules', PROBE_FOLDER]))).filter(
    (path) => !insideAny(path, installed),
  );
  const packaged = await packagedOf(at, callFiles, patched);
  const shipsCalls = packaged !== null && callFiles.every((path) => packaged.files.has(path));
  const unpackaged = shipsCalls ? present.filter((path) => !packaged.files.has(path)) : [];
  if (unpackaged.length > 0)
    at.log(
      `assessment: outside the runner, the project as it is published, without ${unpackaged.length} file(s) it does not ship`,
    );
  const archived = await archiveLeavesOut(at.dir, present);
  const unarchived = callFiles.some((path) => archived.includes(path)) ? [] : archived;
  if (unarchived.length > 0)
    at.log(`assessment: outside the runner, without ${unarchived.length} file(s) a git archive leaves out (export-ignore)`);
  const paths = [...new Set([...unpackaged, ...unarchived])];
  if (!packaged) return { paths, staleBuilds: [], builtCopies: new Map(), builtFiles: [] };
  // A build run just now is not stale: its copies are what users get, and the calls are made there.
  if (packaged.built) {
    const copies = await builtCopies(at.dir, packaged.tool, packaged.files, functions);
    if (copies.size > 0)
      at.log(`assessment: outside the runner, ${copies.size} call(s) made on the copy the package's build ships`);
    const before = new Set(present);
    const builtFiles = [...packaged.files].filter((path) => !before.has(path));
    return { paths, staleBuilds: [], builtCopies: copies, builtFiles };
  }
  const stale = await staleBuilds(at.dir, packaged.tool, { packaged: packaged.files, patched }, functions);
  return { paths, staleBuilds: stale, builtCopies: new Map(), builtFiles: [] };
}

/**
 * What the package ships, when every call is of one language with a packaging tool and the project is
 * published; null otherwise: not published (an application, a folder of scripts), or a tool that
 * could not say. A package built from other files than those the calls load (its `files` list names
 * `dist/`, the tests load `src/`) runs from the checkout as it is (unshippedFiles).
 */
async function packagedOf(
  at: ShipsAt,
  callFiles: readonly string[],
  patched: ReadonlySet<string>,
): Promise<{ tool: ShippedFiles; files: ReadonlySet<string>; built: boolean } | null> {
  const tools = new Set(callFiles.map((path) => probeLanguageOf(path)?.outside?.shipped));
  const [tool] = tools;
  if (tools.size !== 1 || !tool) return null;
  const failed = at.listing?.failed;
  if (failed && [...patched].every((path) => callFiles.includes(path))) {
    at.log(`assessment: outside the runner, the package's files are not known: ${failed} (for the original; not listed again)`);
    return null;
  }
  const packaged = await packagedFiles(at.dir, tool, {
    suite: at.suite,
    folder: PROBE_FOLDER,
    timeoutMs: at.left() - 1000,
  });
  if (packaged.kind === 'unknown') {
    at.log(`assessment: outside the runner, the package's files are not known: ${packaged.why}`);
    if (at.listing) at.listing.failed = packaged.why;
  }
  return packaged.kind === 'package' ? { tool, files: packaged.files, built: packaged.built } : null;
}
