// Rivals for a patch whose engine offered no alternatives (docs/design.md §3.3): other one-edit patches at
// the lines it changed that also pass the failing tests, run in the assessment's checkout. The
// assessment then compares them with the patch as it compares an engine's alternatives, so an
// input on which they give other results is an ambiguity the tests do not decide.
// Why: when only the failing tests call the changed function, every generated input is "near" them
// and a wrong patch shows no change outside them; a rival that passes and disagrees shows it
// (bench/overfit-written.ts: incorrect patches `verified` 9 → 2 of 18 on the written corpus). The candidates are the
// `repair` engine's one-edit candidates (one-edit-rivals.ts), behind RivalSource, which a test can stand in for.
import { createTwoFilesPatch } from 'diff';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { candidateRunTimeout } from '../core/candidate-run-timeout.ts';
import { runInCheckouts } from './rival-pool.ts';
import type { TestCaseResult } from '../core/test-report.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import type { CandidateInfo } from './assessment-level.ts';
import type { PatchedVersion } from './patched-versions.ts';
import type { RivalScreen } from './rival-screen.ts';
import { screenedVersions, withTexts } from './checkout-texts.ts';
import { directLaunchOf, withoutLauncher } from '../runners/direct-launch.ts';
import { packageScripts } from '../runners/package-scripts.ts';

/** One file of the original with one edit, and what the edit is (`src/a.js:12 \`<\` → \`<=\``). */
export interface RivalCandidate {
  file: string;
  text: string;
  summary: string;
}

export interface RivalRequest {
  /** The assessment's checkout, set up, every file as the original has it. */
  dir: string;
  original: (path: string) => Promise<string | null>;
  /** The patch, as the texts of the files it changes. */
  patched: PatchedVersion;
  fixed: readonly TestCaseResult[];
  testFiles: readonly string[];
}

/** Where rival candidates come from, and which of those found weaken a check (the same reasons an engine's alternatives carry). */
export interface RivalSource {
  /** In the order to try them; none equal to the patch. */
  candidates(request: RivalRequest): Promise<RivalCandidate[]>;
  weakens(found: ReadonlyArray<{ file: string; before: string; after: string }>): Promise<Array<string | null>>;
}

export interface RivalSearch {
  source: RivalSource;
  request: RivalRequest;
  suite: SuiteRunner;
  /**
   * Commands that run the failing tests alone (runners/focused-test-command.ts), best first: the first
   * that runs the patch's fixed tests all, passing, stands (the last one as it is). None: no rival is
   * tried, a whole suite run each costs too much.
   */
  focused: readonly string[];
  /**
   * Another checkout, with every file as `request.dir` has it, where candidates run beside those in
   * `request.dir` (null: none to be had). Asked once, as the search starts; candidates do not wait for
   * it. `made`: the search's own, removed when it closes (else its maker's, left as it is).
   */
  second?: { ready: () => Promise<string | null>; made: boolean };
  log: (line: string) => void;
}

export interface Rival {
  info: CandidateInfo;
  version: PatchedVersion;
}

export interface RivalsFound {
  rivals: Rival[];
  /** Why this step ended before the last candidate: its time, its `max`, an error. */
  stopped?: 'time' | 'enough' | 'error';
}

/** A search that goes on where its last step ended: the caller compares what a step found before asking for more. */
export interface RivalSearcher {
  /** Candidates there are, how many have run on the failing tests so far, and how many the screen set aside unrun. */
  readonly candidates: number;
  readonly tried: number;
  readonly screened: number;
  /** From now on, each candidate goes through `screen` before its run (rival-screen.ts): set aside, it does not run. */
  screenWith(screen: RivalScreen): void;
  /**
   * Runs the next candidates until `max` more pass the failing tests, `deadline()` (epoch ms, asked
   * before each candidate: a step begun beside the look learns its end only when the look is done)
   * comes, or `cancel` is aborted (a run under way finishes first).
   */
  next(max: number, deadline: () => number, cancel?: AbortSignal): Promise<RivalsFound>;
  /** Waits for the second checkout, if one was being made, and removes it when it is the search's own. */
  close(): Promise<void>;
}

/** The candidates, the files' original texts, and a run of the patch itself on the failing tests alone (its time bounds each candidate's). Null: nothing to try, with the reason logged. */
export async function startRivalSearch(search: RivalSearch, limitMs: number): Promise<RivalSearcher | null> {
  const { request, log } = search;
  if (search.focused.length === 0) {
    log('assessment: no rival patches tried: the failing tests cannot be run alone with this test command');
    return null;
  }
  const candidates = await search.source.candidates(request);
  if (candidates.length === 0) return null;
  // Read before anything is written: `original` may read the checkout, which the runs below rewrite.
  const originals = await originalTexts(request, candidates);
  let reference: { gate: GateResult; command: string } | null;
  try {
    reference = await referenceRun(search, originals, limitMs);
  } catch (error) {
    log(`assessment: the search for rival patches stopped: ${(error as Error).message}`);
    return noSearch(candidates.length, 'error');
  }
  if (!reference) {
    log('assessment: no rival patches tried: the failing tests did not pass alone with the patch in the assessment’s checkout');
    return noSearch(candidates.length);
  }
  const { gate: patchRun, command: focused } = reference;
  log(
    `assessment: trying ${candidates.length} one-edit patches at the lines the patch changed, on the failing tests alone: \`${focused}\``,
  );
  // Made while the first candidates run; a setup that fails or throws leaves one checkout.
  const second = candidates.length > 1 && search.second ? search.second.ready().catch(() => null) : Promise.resolve(null);
  // Where the next step starts, among the candidates; of those passed, how many ran and how many were set aside.
  let position = 0;
  let tried = 0;
  let screened = 0;
  let screen: RivalScreen | null = null;
  let named = 0;
  // The candidates' runs in one checkout share a /tmp, where a runner keeps its caches (jest's
  // transforms, npm's compiled modules): the candidates are fixloop's own edits of the original. The
  // patch's own run above had a /tmp of its own, so nothing it left there serves them.
  const keptTmp = keptTmpFolders();
  return {
    candidates: candidates.length,
    get tried() {
      return tried;
    },
    get screened() {
      return screened;
    },
    screenWith(given) {
      screen = given;
    },
    async next(max, deadline, cancel) {
      const left = () => deadline() - Date.now();
      // Bounded as the `repair` engine bounds its candidates, by the patch's own run.
      const runMs = () => candidateRunTimeout(patchRun.durationMs, left());
      const pool = await runInCheckouts(
        { candidates, from: position, max, first: request.dir, second },
        async (dir, candidate) => {
          const edited = new Map([[candidate.file, candidate.text]]);
          const versions = screenedVersions(dir, { patched: request.patched.files, candidate: edited }, originals);
          if (await screen?.setsAside(dir, candidate.summary, versions, Math.min(runMs(), left()))) {
            screened += 1;
            return false;
          }
          tried += 1;
          const tmpDir = await keptTmp.of(dir);
          const gate = () => search.suite.gateWith(dir, focused, Math.min(runMs(), left()), { tmpDir });
          return (await withTexts(dir, edited, originals, gate)).passed;
        },
        // A run with less time than the patch's own took could not tell a pass from a slow candidate.
        () => cancel?.aborted === true || left() < 2 * patchRun.durationMs + 500,
      );
      position = pool.next;
      const { found } = pool;
      let stopped: RivalsFound['stopped'] = pool.stopped;
      if (pool.error) {
        log(`assessment: the search for rival patches stopped: ${pool.error.message}`);
        stopped = 'error';
      }
      // In the candidates' order, whichever checkout ran them: the engine's order is the rivals' too.
      const inOrder = found.sort((a, b) => a.index - b.index).map((f) => f.candidate);
      log(foundLine(inOrder, tried, screened));
      const rivals = await asRivals(inOrder, originals, search.source, named);
      named += rivals.length;
      return { rivals, ...(stopped ? { stopped } : {}) };
    },
    async close() {
      const dir = await second;
      if (dir && search.second?.made) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      await keptTmp.remove();
    },
  };
}

/** A search that tries nothing: no run of the patch on the failing tests passed, or one failed (`error`). */
function noSearch(candidates: number, stopped?: 'error'): RivalSearcher {
  return {
    candidates,
    tried: 0,
    screened: 0,
    screenWith: () => undefined,
    next: async () => ({ rivals: [], ...(stopped ? { stopped } : {}) }),
    close: async () => undefined,
  };
}

/** The original text of every file the patch or a candidate changes. */
async function originalTexts(request: RivalRequest, candidates: readonly RivalCandidate[]): Promise<Map<string, string | null>> {
  const originals = new Map<string, string | null>();
  for (const path of [...request.patched.files.keys(), ...candidates.map((c) => c.file)])
    if (!originals.has(path)) originals.set(path, await request.original(path));
  return originals;
}

/**
 * The patch itself on the failing tests alone, in `request.dir`: it passes (the judge held it), and
 * its time bounds each candidate's. The first command that runs every test the patch fixed stands;
 * the last one as it is. Each is tried first started without npm (direct-launch.ts): the candidates'
 * runs are fixloop's own, and it stands only where the patch passes the failing tests so. Null: none passed.
 */
async function referenceRun(
  search: RivalSearch,
  originals: ReadonlyMap<string, string | null>,
  limitMs: number,
): Promise<{ gate: GateResult; command: string } | null> {
  const { request } = search;
  const launch = await directLaunchOf(request.dir, await packageScripts(request.dir));
  const commands = search.focused.flatMap((command) => {
    const direct = withoutLauncher(command, launch);
    return direct === null ? [command] : [direct, command];
  });
  for (const [i, command] of commands.entries()) {
    const gate = await withTexts(request.dir, request.patched.files, originals, () =>
      search.suite.gateWith(request.dir, command, limitMs),
    );
    const reported = new Set(gate.report.tests.filter((t) => t.status === 'passed').map((t) => t.id));
    const last = i === commands.length - 1;
    if (gate.passed && (last || request.fixed.every((t) => reported.has(t.id)))) return { gate, command };
  }
  return null;
}

/** What the search found so far, for the log. */
function foundLine(found: readonly RivalCandidate[], tried: number, screened: number): string {
  const aside =
    screened > 0 ? ` (${screened} set aside unrun: outside the runner they change none of the calls the patch changed)` : '';
  const which = found.length > 0 ? `: ${found.map((f) => f.summary).join('; ')}` : '';
  return `assessment: ${found.length} more of the ${tried} one-edit patches tried so far also pass the failing tests${aside}${which}`;
}

/** A kept /tmp per checkout, made when first asked, and removed together. */
function keptTmpFolders(): { of(dir: string): Promise<string>; remove(): Promise<void> } {
  const made = new Map<string, Promise<string>>();
  return {
    of(dir) {
      let folder = made.get(dir);
      if (!folder) {
        folder = mkdtemp(join(tmpdir(), 'fixloop-rival-tmp-'));
        made.set(dir, folder);
      }
      return folder;
    },
    async remove() {
      for (const folder of made.values()) await rm(await folder, { recursive: true, force: true }).catch(() => undefined);
      made.clear();
    },
  };
}

/** The candidates found as rivals, each with the check it weakens, if any; numbered on from `named`. */
async function asRivals(
  found: RivalCandidate[],
  originals: ReadonlyMap<string, string | null>,
  source: RivalSource,
  named: number,
): Promise<Rival[]> {
  if (found.length === 0) return [];
  const weakens = await source.weakens(found.map((f) => ({ file: f.file, before: originals.get(f.file) ?? '', after: f.text })));
  return found.map((f, i): Rival => {
    const why = weakens[i];
    const patch = createTwoFilesPatch(`a/${f.file}`, `b/${f.file}`, originals.get(f.file) ?? '', f.text);
    return {
      info: { patch, summary: f.summary, foundBy: 'assessment', ...(why ? { weakens: why } : {}) },
      version: { name: `rival-${named + i + 1}`, files: new Map([[f.file, f.text]]) },
    };
  });
}
