// The files of a checkout that users do not get, which the look from outside the runner moves out
// while the plain process runs (outside-look.ts): what a published package's own packaging tool
// leaves out (packaged-files.ts), and what a git archive of the project leaves out
// (archive-files.ts). A fix kept in either is in the tests' checkout and not in what is installed.
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { archiveLeavesOut } from './archive-files.ts';
import { packagedFiles } from './packaged-files.ts';
import { PROBE_FOLDER } from './probe-checkout.ts';
import { probeLanguageOf } from './probe-languages.ts';
import { writtenSince } from './written-since.ts';

export interface ShipsAt {
  /** The checkout, as the version to look at is written in it. */
  dir: string;
  suite: SuiteRunner;
  left: () => number;
  log: (line: string) => void;
}

/**
 * The paths (relative) users do not get of a checkout whose changed calls are in `callFiles`: every
 * file the package's tool does not list, when every call's file is one it lists; and every file a git
 * archive leaves out, when no call's file is one of those (the calls could not be made from an
 * archive at all). None where neither applies, or no time is left.
 */
export async function unshippedFiles(at: ShipsAt, callFiles: readonly string[]): Promise<string[]> {
  if (at.left() < 2000) return [];
  // Every file but the dependencies and fixloop's own folder; the test files and what the runs
  // wrote are out already (ProbeCheckout.withoutTests).
  const present = await writtenSince(at.dir, 0, new Set(['node_modules', PROBE_FOLDER]));
  const unpackaged = await unpackagedOf(at, callFiles, present);
  const archived = await archiveLeavesOut(at.dir, present);
  const unarchived = callFiles.some((path) => archived.includes(path)) ? [] : archived;
  if (unarchived.length > 0)
    at.log(`assessment: outside the runner, without ${unarchived.length} file(s) a git archive leaves out (export-ignore)`);
  return [...new Set([...unpackaged, ...unarchived])];
}

/**
 * What the package leaves out, when every call is of one language whose packaging tool says it ships
 * the call's file; none otherwise: not published (an application, a folder of scripts), a tool that
 * could not say, or a package built from other files than those the calls load (its `files` list
 * names `dist/`, the tests load `src/`), where the checkout as it is stands for what ships.
 */
async function unpackagedOf(at: ShipsAt, callFiles: readonly string[], present: readonly string[]): Promise<string[]> {
  const tools = new Set(callFiles.map((path) => probeLanguageOf(path)?.outside?.shipped));
  const [shipped] = tools;
  if (tools.size !== 1 || !shipped) return [];
  const packaged = await packagedFiles(at.dir, shipped, {
    suite: at.suite,
    folder: PROBE_FOLDER,
    timeoutMs: at.left() - 1000,
  });
  if (packaged.kind === 'unknown') at.log(`assessment: outside the runner, the package's files are not known: ${packaged.why}`);
  if (packaged.kind !== 'package' || callFiles.some((path) => !packaged.files.has(path))) return [];
  const left = present.filter((path) => !packaged.files.has(path));
  if (left.length > 0)
    at.log(`assessment: outside the runner, the project as it is published, without ${left.length} file(s) it does not ship`);
  return left;
}
