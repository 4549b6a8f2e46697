// The branch a failing test did not take. Ochiai only sees lines a failing test runs; when a condition
// is wrong the other way (sqlparse's `if token.value == 'AS'` misses a lowercase `as`, so
// `has_as = True` never runs), the faulty line is run by every test and scores near zero. The passing
// test that ran the most nearly the same lines (Renieris and Reiss, "Fault localization with nearest
// neighbor queries", ASE 2003) shows what the failing test skipped; the condition just above each
// skipped block, which the failing test did run, is where its path turned.
import type { TestSpectrum } from './ochiai.ts';

export interface SkippedBranch {
  file: string;
  line: number;
  /** The similarity (Jaccard, 0..1) of the failing test and the passing test that ran the skipped block. */
  score: number;
  /** Whether that passing test is the failing one's name twin (nameTwin), not only the most similar coverage. */
  byName: boolean;
}

/** A line that decides whether what follows runs: a condition, a loop, a case, a short-circuit or a ternary. */
const BRANCH_JS = /^\s*(\}\s*)?(if|else\s+if|while|for|switch|case)\b|&&|\|\||\s\?\s/;
const BRANCH_PY = /^\s*(if|elif|while|for)\b|\b(and|or)\b|\sif\s.+\selse\s/;

/** Whether a line branches, its comment aside (a V8 block counts the comments inside it as run). */
function branches(file: string, line: string): boolean {
  const python = file.endsWith('.py');
  const code = line.replace(python ? /#.*$/ : /\/\/.*$|\/\*.*$|^\s*\*.*$/, '');
  return (python ? BRANCH_PY : BRANCH_JS).test(code);
}
/** Where a function starts: a skipped function's body was decided by its callers, not by the lines above it. */
const FUNCTION_START = /^\s*(export\s+)?(async\s+)?(def|function|class)\b|=>\s*\{?\s*$/;

export interface SkippedBranchOptions {
  /** Passing tests compared with each failing test. */
  neighbours?: number;
  /** Below this similarity a passing test says nothing about the failing one's path. */
  minSimilarity?: number;
  /** How far above a skipped line its deciding condition is looked for. */
  window?: number;
  /** At most this many failing tests are compared (each one scans every passing test). */
  maxFailing?: number;
}

const keyOf = (file: string, line: number) => `${file}:${line}`;

function flatten(spectrum: TestSpectrum): Set<string> {
  const keys = new Set<string>();
  for (const [file, lines] of spectrum.lines) for (const line of lines) keys.add(keyOf(file, line));
  return keys;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const key of small) if (large.has(key)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/**
 * Conditions above blocks that the most similar passing tests ran and a failing test skipped, each
 * scored by that similarity (the highest over the pairs that point at it).
 * `sourceLines(file)` gives a file's lines (null when unreadable: its skipped blocks are left out).
 */
export function skippedBranches(
  spectra: readonly TestSpectrum[],
  sourceLines: (file: string) => readonly string[] | null,
  options: SkippedBranchOptions = {},
): SkippedBranch[] {
  const { neighbours = 3, minSimilarity = 0.5, window = 12, maxFailing = 5 } = options;
  const failing = spectra.filter((t) => t.failed).slice(0, maxFailing);
  const passing = spectra.filter((t) => !t.failed).map((t) => ({ test: t, keys: flatten(t) }));
  const found = new Map<string, SkippedBranch>();
  for (const test of failing) {
    const keys = flatten(test);
    const compared = passing
      .map((p) => ({ ...p, similarity: jaccard(keys, p.keys) }))
      .filter((p) => p.similarity >= minSimilarity);
    // A failing test written as a variant of a passing one (`test_alias_ctas_lowercase_as` beside
    // `test_alias_ctas`) names the path it should have taken better than any coverage measure.
    compared.sort((a, b) => b.similarity - a.similarity);
    const twin = nameTwin(test.id, compared);
    const nearest = twin ? [twin] : compared.slice(0, neighbours);
    for (const near of nearest) {
      for (const [file, lines] of near.test.lines) {
        const text = sourceLines(file);
        const ran = test.lines.get(file);
        if (!text || !ran) continue; // a file the failing test never entered: no turn inside it to find
        for (const skipped of lines) {
          if (ran.has(skipped)) continue;
          const decider = deciderAbove(file, skipped, ran, text, window);
          if (decider === null) continue;
          const key = keyOf(file, decider);
          if ((found.get(key)?.score ?? 0) < near.similarity)
            found.set(key, { file, line: decider, score: near.similarity, byName: near === twin });
        }
      }
    }
  }
  return [...found.values()];
}

/** The nearest line above `skipped`, within the window, that the failing test ran and that branches. */
function deciderAbove(file: string, skipped: number, ran: Set<number>, text: readonly string[], window: number): number | null {
  for (let line = skipped - 1; line >= Math.max(1, skipped - window); line--) {
    const code = text[line - 1] ?? '';
    if (ran.has(line) && branches(file, code)) return line;
    if (FUNCTION_START.test(code)) return null;
  }
  return null;
}

/** A name's words, its parameters (pytest's `[e1-None]`) aside: two cases of one test are twins. */
const words = (name: string) =>
  name
    .replace(/\[[^\]]*\]$/, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Where a test's own name starts in its id (pytest's `file::Class::name`, mocha's `suite > name`, jest's `file › name`). */
function splitId(id: string): { place: string; name: string } {
  const at = Math.max(id.lastIndexOf('::'), id.lastIndexOf(' > '), id.lastIndexOf(' › '));
  return at < 0 ? { place: '', name: id } : { place: id.slice(0, at), name: id.slice(at) };
}

/**
 * The passing test in the same place (file, class or suite) that the failing test is a variant of:
 * one name extends the other (`test_alias_ctas` and `test_alias_ctas_lowercase_as`), or they differ
 * in their last word only, or in their parameters only; at least two words shared. A shared prefix
 * alone (`test_grouping_…`, every test of the file) is no kinship. Among several, the one sharing the
 * most words, then the first given (callers pass the most similar coverage first).
 */
export function nameTwin<T extends { test: TestSpectrum }>(failingId: string, passing: readonly T[]): T | null {
  const failing = splitId(failingId);
  const mine = words(failing.name);
  let best: { candidate: T; shared: number } | null = null;
  for (const candidate of passing) {
    const other = splitId(candidate.test.id);
    if (other.place !== failing.place) continue;
    const theirs = words(other.name);
    const shorter = Math.min(mine.length, theirs.length);
    let shared = 0;
    while (shared < shorter && mine[shared] === theirs[shared]) shared++;
    const variant = shared === shorter || (mine.length === theirs.length && shared === shorter - 1);
    if (variant && shared >= 2 && shared > (best?.shared ?? 0)) best = { candidate, shared };
  }
  return best?.candidate ?? null;
}
