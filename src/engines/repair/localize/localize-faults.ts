// Fault localization: ranks the source lines most likely to hold the bug.
// Signals, strongest first: lines a failing change touched (hints), frames of the failing tests'
// stack traces and the lines just above them, Ochiai over per-test coverage when it is cheap to
// collect, the source files the
// failing tests import (always, at a low weight), and for a small repository without any of these,
// every source line. Scores combine as a noisy-or: 1 − Π(1 − sᵢ). See docs/fault-localization.md.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LocalizationHint } from '../../engine.ts';
import type { TestCaseResult } from '../../../core/test-report.ts';
import type { SuspiciousLine } from '../candidate.ts';
import { importedSourceFiles } from '../../../core/imported-files.ts';
import { calledNames, constantLines, namedFunctionLines, namesInTests, readNames } from './named-functions.ts';
import { collectSpectra, type SpectraInput } from './collect-spectra.ts';
import { ochiai } from './ochiai.ts';
import { traceGeneratedLines } from './generated-code.ts';
import { skippedBranches } from './skipped-branches.ts';
import { sourceFrames } from './stack-traces.ts';

export interface LocalizeInput {
  root: string;
  files: string[];
  failing: TestCaseResult[];
  output: string;
  hints: LocalizationHint[];
  isTestFile: (path: string) => boolean;
  /** Most lines returned. */
  limit?: number;
  /** When given, per-test coverage is collected within its deadline for spectrum-based localization. */
  coverage?: Omit<SpectraInput, 'root' | 'tests'> & { tests: readonly TestCaseResult[] };
}

export const WEIGHTS = {
  hint: 0.95,
  frame: 0.9,
  /** Per step away from the raise point, a frame's weight is multiplied by this. */
  frameDecay: 0.75,
  above: 0.55,
  aboveDecay: 0.7,
  aboveSpan: 6,
  /** Multiplies the Ochiai score (0..1) of a line. */
  ochiai: 0.7,
  /** Multiplies the similarity (0..1) of a failing test and its name twin, which took a branch it skipped. */
  skipped: 0.5,
  /**
   * The same for a passing test chosen by coverage alone: nearest-neighbour localization by coverage
   * alone is weaker evidence than Ochiai (Jones and Harrold, ASE 2005), a name twin stronger.
   */
  skippedNearest: 0.25,
  imported: 0.12,
  /** Lines of a function the failing tests name, in a file they import. */
  named: 0.3,
  /**
   * Lines of a function that a named function calls (one call away), or the declaration of a
   * module constant it reads, in a file the tests import.
   */
  called: 0.2,
  repository: 0.05,
} as const;

const SOURCE = /\.(c|m)?[jt]sx?$|\.py$|\.(c|h|cc|cpp|hpp|java|go|rs|cs|kt|swift|scala|php|rb|dart)$/;
const SMALL_REPOSITORY_LINES = 3000;

const isPython = (file: string) => file.endsWith('.py');
const sameLanguage = (a: string, b: string) => isPython(a) === isPython(b);

export async function localizeFaults(input: LocalizeInput): Promise<SuspiciousLine[]> {
  const scores = new Map<string, { file: string; line: number; miss: number; signals: Set<string> }>();
  const add: AddScore = (file, line, score, signal) => {
    if (line < 1 || score <= 0 || input.isTestFile(file) || !SOURCE.test(file)) return;
    const key = `${file}:${line}`;
    const entry = scores.get(key) ?? { file, line, miss: 1, signals: new Set<string>() };
    entry.miss *= 1 - Math.min(score, 0.999);
    entry.signals.add(signal);
    scores.set(key, entry);
  };
  const lineCount = new Map<string, number>();
  const linesOf = async (file: string) => {
    if (!lineCount.has(file))
      lineCount.set(file, (await readFile(join(input.root, file), 'utf8').catch(() => '')).split('\n').length);
    return lineCount.get(file) ?? 0;
  };

  for (const hint of input.hints) for (const line of hint.lines) add(hint.file, line, WEIGHTS.hint, 'diff');

  const traces = input.failing.map((t) => `${t.message ?? ''}\n${t.stack ?? ''}`);
  if (traces.every((t) => !t.trim())) traces.push(input.output);
  for (const trace of traces) {
    for (const frame of sourceFrames(trace, input.files, input.isTestFile)) {
      const weight = WEIGHTS.frame * WEIGHTS.frameDecay ** frame.depth;
      add(frame.file, frame.line, weight, 'stack');
      for (let k = 1; k <= WEIGHTS.aboveSpan; k++)
        add(frame.file, frame.line - k, weight * WEIGHTS.above * WEIGHTS.aboveDecay ** (k - 1), 'near-stack');
    }
  }

  if (input.coverage) await addCoverageSignals(input, input.coverage, add);

  // Assertion failures often have no frame in the source at all: what the failing tests import is
  // the next best place, with a low weight so that stack and diff signals still come first.
  await addImportedSignals(input, add, linesOf);

  if (scores.size === 0) {
    const sources = input.files.filter((f) => SOURCE.test(f) && !input.isTestFile(f));
    let total = 0;
    for (const file of sources) total += await linesOf(file);
    if (total <= SMALL_REPOSITORY_LINES) {
      for (const file of sources) {
        const n = await linesOf(file);
        for (let line = 1; line <= n; line++) add(file, line, WEIGHTS.repository, 'repository');
      }
    }
  }

  return [...scores.values()]
    .map((e) => ({ file: e.file, line: e.line, score: 1 - e.miss, signals: [...e.signals].sort() }))
    .sort((a, b) => b.score - a.score || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line)
    .slice(0, input.limit ?? 400);
}

/** Adds one signal's score (0..1) to a line's; the scores of a line combine as a noisy-or. */
type AddScore = (file: string, line: number, score: number, signal: string) => void;

/**
 * Spectrum-based signals from per-test coverage, when it could be collected within its deadline:
 * Ochiai, the sources behind generated code it points at, and branches a failing test skipped.
 */
async function addCoverageSignals(
  input: LocalizeInput,
  coverage: NonNullable<LocalizeInput['coverage']>,
  add: AddScore,
): Promise<void> {
  const spectra = await collectSpectra({ ...coverage, root: input.root });
  if (spectra) {
    const known = new Set(input.files);
    const scored = [...ochiai(spectra).values()];
    for (const { file, line, score } of scored) if (known.has(file)) add(file, line, WEIGHTS.ochiai * score, 'ochiai');
    // Code the test command generated (a bundle it builds first) points back at its sources.
    const generated = scored.filter((s) => !known.has(s.file));
    const sources = input.files.filter(
      (f) => SOURCE.test(f) && !input.isTestFile(f) && generated.some((g) => sameLanguage(f, g.file)),
    );
    for (const { file, line, score } of await traceGeneratedLines(input.root, generated, sources))
      add(file, line, WEIGHTS.ochiai * score, 'ochiai-generated');
    const texts = new Map<string, string[]>();
    for (const file of new Set(spectra.flatMap((t) => [...t.lines.keys()]))) {
      if (known.has(file)) texts.set(file, (await readFile(join(input.root, file), 'utf8').catch(() => '')).split('\n'));
    }
    for (const { file, line, score, byName } of skippedBranches(spectra, (file) => texts.get(file) ?? null))
      add(file, line, (byName ? WEIGHTS.skipped : WEIGHTS.skippedNearest) * score, 'skipped');
  }
}

/**
 * Every line of the source files the failing tests import, at a low weight; within them, the body of
 * a function the failing tests name, then the functions it calls and the module constants it reads.
 */
async function addImportedSignals(
  input: LocalizeInput,
  add: AddScore,
  linesOf: (file: string) => Promise<number>,
): Promise<void> {
  const named = [...new Set(input.failing.map((t) => t.file).filter((f): f is string => !!f))];
  // Runners whose report names no file (mocha's spec, pytest -q's summary): every test file then.
  const testFiles =
    named.length > 0 || input.failing.length === 0 ? named : input.files.filter((f) => input.isTestFile(f) && SOURCE.test(f));
  const names = namesInTests(input.failing.flatMap((t) => [t.id, t.name]).filter((n): n is string => typeof n === 'string'));
  const imported = await importedSourceFiles(input.root, testFiles, input.files, input.isTestFile);
  const sources = new Map<string, string>();
  const called = new Set<string>();
  const read = new Set<string>();
  for (const file of imported) {
    const n = await linesOf(file);
    for (let line = 1; line <= n; line++) add(file, line, WEIGHTS.imported, 'imported');
    // Among them, the body of a function the failing tests name comes first, then what it calls.
    const source = await readFile(join(input.root, file), 'utf8').catch(() => '');
    sources.set(file, source);
    const bodies = namedFunctionLines(file, source, names);
    for (const named of bodies) for (const line of named.lines) add(file, line, WEIGHTS.named, 'named');
    for (const name of calledNames(source, bodies)) if (!names.has(name)) called.add(name);
    for (const name of readNames(source, bodies)) read.add(name);
  }
  for (const [file, source] of sources) {
    if (called.size > 0)
      for (const callee of namedFunctionLines(file, source, called))
        for (const line of callee.lines) add(file, line, WEIGHTS.called, 'called');
    if (read.size > 0)
      for (const constant of constantLines(file, source, read))
        for (const line of constant.lines) add(file, line, WEIGHTS.called, 'read');
  }
}
