// Wrong-but-plausible patches told from the upstream fix without the product's assessment (issue 47,
// item 2): each suite-passing mutant bench/mutant-patches.ts wrote unjudged (`--keep-by separation`)
// is separated by a short program written by hand next to its patch,
// bench/real/<id>/mutants/<hash>.separate.mjs or .py, which imports the changed module and prints,
// one line per chosen input, `<input>\t<output>`. The program runs in a checkout of the upstream fix
// and in one of the mutant: the mutant is kept when an input's outputs differ (or the program fails
// on the mutant only), equivalent when no program was written or every output agrees. A program that
// fails on the upstream fix is broken, not a separation: its mutant is left not compared. A patch
// written by hand (origin `hand`, mutant-hand.ts) is run through the whole suite first, as a
// generated mutant is when it is made: only one that passes it is judged.
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixLines } from './fix-lines.ts';
import type { DescribedMutant, MutantsFile } from './mutant-files.ts';
import { mutantsDir, plausibleOf } from './mutant-files.ts';
import { plausibleMutants } from './mutant-keep.ts';
import { applyPatch, materializeReal, setUp, type RealBug } from './real-corpus.ts';
import { shell, timed, type Timed } from './workdir.ts';

const PROGRAM_TIMEOUT_MS = 60_000;
const SETUP_TIMEOUT_MS = 300_000;
/** Differing inputs kept per mutant: the first few say enough. */
const SEPARATIONS_KEPT = 5;
/** The line that stands for the program's exit when it fails. */
export const EXIT_INPUT = "(the program's exit)";

/** A mutant's separation program on disk, or null when none was written (the mutant is equivalent). */
export function separationProgram(bugDir: string, hash: string): string | null {
  for (const ext of ['mjs', 'py']) {
    const path = join(mutantsDir(bugDir), `${hash}.separate.${ext}`);
    if (existsSync(path)) return path;
  }
  return null;
}

// A TypeScript project's sources import each other without an extension (`./utils`) or by the
// emitted name (`./utils.js`): Node strips the types but resolves neither, so a program importing a
// .ts module loads it with these resolve hooks.
const TS_HOOKS = `import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (!/^\\.\\.?\\//.test(specifier) || !/\\.ts$/.test(context.parentURL ?? '')) throw error;
      const base = specifier.replace(/\\.js$/, '');
      for (const candidate of [base + '.ts', base + '/index.ts']) {
        try {
          return next(candidate, context);
        } catch {}
      }
      throw error;
    }
  },
});
`;

/** Runs the program at the checkout's root (its imports are relative to it), with the checkout on Python's path. */
export function runProgram(dir: string, program: string, timeoutMs = PROGRAM_TIMEOUT_MS): Promise<Timed> {
  if (program.endsWith('.py')) {
    copyFileSync(program, join(dir, 'fixloop_separate.py'));
    const pythonPath = [dir, join(dir, 'src'), process.env.PYTHONPATH].filter(Boolean).join(':');
    return timed('python3', ['fixloop_separate.py'], dir, timeoutMs, { PYTHONPATH: pythonPath, PYTHONDONTWRITEBYTECODE: '1' });
  }
  copyFileSync(program, join(dir, 'fixloop-separate.mjs'));
  writeFileSync(join(dir, 'fixloop-separate-hooks.mjs'), TS_HOOKS);
  const node = ['--no-warnings', '--experimental-transform-types', '--import', './fixloop-separate-hooks.mjs'];
  return timed(process.execPath, [...node, 'fixloop-separate.mjs'], dir, timeoutMs);
}

/** A run's outputs by input: each `<input>\t<output>` line; a failed run adds its exit as one more. */
export function outputsOf(run: Pick<Timed, 'code' | 'stdout' | 'stderr'>): Map<string, string> {
  const outputs = new Map<string, string>();
  run.stdout.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const tab = line.indexOf('\t');
    if (tab < 0) outputs.set(`line ${i + 1}`, line);
    else outputs.set(line.slice(0, tab), line.slice(tab + 1));
  });
  if (run.code !== 0) {
    const last = run.stderr.trim().split('\n').filter(Boolean).pop() ?? '';
    outputs.set(EXIT_INPUT, `exit ${run.code}${last ? `: ${last}` : ''}`);
  }
  return outputs;
}

export type Separation =
  | { verdict: 'differs'; compared: number; differing: { input: string; upstream: string; mutant: string }[] }
  | { verdict: 'agrees'; compared: number }
  | { verdict: 'broken'; why: string };

/** What the program's runs on the upstream fix and on the mutant say of the mutant. */
export function separation(
  upstream: Pick<Timed, 'code' | 'stdout' | 'stderr'>,
  mutant: Pick<Timed, 'code' | 'stdout' | 'stderr'>,
): Separation {
  const [a, b] = [outputsOf(upstream), outputsOf(mutant)];
  if (a.has(EXIT_INPUT)) return { verdict: 'broken', why: `the program fails on the upstream fix: ${a.get(EXIT_INPUT)}` };
  if (a.size === 0) return { verdict: 'broken', why: 'the program prints nothing on the upstream fix' };
  const inputs = [...new Set([...a.keys(), ...b.keys()])];
  const differing = inputs
    .filter((input) => a.get(input) !== b.get(input))
    .map((input) => ({ input, upstream: a.get(input) ?? '(not printed)', mutant: b.get(input) ?? '(not printed)' }));
  return differing.length > 0
    ? { verdict: 'differs', compared: inputs.length, differing }
    : { verdict: 'agrees', compared: inputs.length };
}

/** Applies `patch` in `dir`, runs `body`, and puts the patched files back as they were. */
async function withPatch<T>(dir: string, patch: string, body: () => Promise<T>): Promise<T> {
  const files = fixLines(patch).map((f) => f.file);
  const before = new Map(files.map((f) => [f, existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : null]));
  try {
    applyPatch(dir, patch);
    return await body();
  } finally {
    for (const [file, text] of before)
      if (text === null) rmSync(join(dir, file), { force: true });
      else writeFileSync(join(dir, file), text);
  }
}

type Judged = Pick<MutantsFile, 'kept' | 'equivalent' | 'notCompared' | 'unjudged' | 'written' | 'failsSuite'>;

/** One mutant judged by its program: where it goes in mutants.json. */
function judged(mutant: DescribedMutant, program: string | null, verdict: Separation | null, into: Judged): void {
  if (!program || !verdict) into.equivalent.push({ ...mutant, compared: 'no separation program' });
  else if (verdict.verdict === 'broken') into.notCompared.push({ ...mutant, why: verdict.why });
  else if (verdict.verdict === 'agrees')
    into.equivalent.push({ ...mutant, compared: `the separation program's ${verdict.compared} inputs agree` });
  else
    into.kept.push({
      ...mutant,
      disagreements: verdict.differing.length,
      separatedBy: verdict.differing.slice(0, SEPARATIONS_KEPT),
      inputs: verdict.differing.map((d) => d.input),
    });
}

/**
 * The patches written by hand and not yet run: those that pass the whole suite (as generated
 * mutants must, mutant-keep.ts), and those that do not, which are never judged.
 */
async function runWritten(
  bug: RealBug,
  file: MutantsFile,
  patches: ReadonlyMap<string, string>,
  log: (line: string) => void,
): Promise<{ passing: DescribedMutant[]; failing: DescribedMutant[]; tried: number } | string> {
  if (file.written.length === 0) return { passing: [], failing: [], tried: 0 };
  const withPatches = file.written.map((m) => {
    const patch = patches.get(m.hash);
    if (!patch) throw new Error(`${bug.id}: no patch for the hand-written ${m.hash}`);
    return { ...m, patch };
  });
  const found = await plausibleMutants(bug, withPatches, withPatches.length, log);
  if (typeof found === 'string') return found;
  const passes = new Set(found.plausible.map((m) => m.hash));
  const strip = ({ patch: _patch, ...m }: (typeof withPatches)[number]): DescribedMutant => m;
  for (const m of withPatches.filter((w) => !passes.has(w.hash))) log(`  ${bug.id} ${m.hash}: fails the suite: ${m.description}`);
  return {
    passing: withPatches.filter((m) => passes.has(m.hash)).map(strip),
    failing: withPatches.filter((m) => !passes.has(m.hash)).map(strip),
    tried: found.tried,
  };
}

/**
 * Every suite-passing mutant of the bug judged again by its separation program: the upstream fix's
 * checkout and one for the mutants (each patch applied and taken back in turn), both set up as the
 * bug's suite runs; the patches written by hand and not yet run pass the whole suite first, or are
 * set aside (failsSuite). Returns the file with kept, equivalent and not compared filled, none
 * unjudged or written.
 */
export async function separateMutants(
  bug: RealBug,
  file: MutantsFile,
  patches: ReadonlyMap<string, string>,
  log: (line: string) => void = console.log,
): Promise<MutantsFile | string> {
  const into: Judged = { kept: [], equivalent: [], notCompared: [], unjudged: [], written: [], failsSuite: [...file.failsSuite] };
  const ran = await runWritten(bug, file, patches, log);
  if (typeof ran === 'string') return ran;
  into.failsSuite.push(...ran.failing);
  const counted = { ...file, tried: file.tried + ran.tried, plausible: file.plausible + ran.passing.length };
  const mutants = [...plausibleOf(file), ...ran.passing];
  const withProgram = mutants.filter((m) => separationProgram(bug.dir, m.hash));
  for (const m of mutants.filter((m) => !withProgram.includes(m))) judged(m, null, null, into);
  if (withProgram.length === 0) return { ...counted, keptBy: 'separation', ...into };
  const upstreamDir = materializeReal(bug, 'separate-upstream', true);
  const mutantDir = materializeReal(bug, 'separate-mutant');
  try {
    for (const dir of [upstreamDir, mutantDir]) {
      const problem = await setUp(bug, dir, (command, cwd) => shell(command, cwd, SETUP_TIMEOUT_MS));
      if (problem) return problem;
    }
    for (const mutant of withProgram) {
      const program = separationProgram(bug.dir, mutant.hash) as string;
      const patch = patches.get(mutant.hash);
      if (!patch) throw new Error(`${bug.id}: no patch for mutant ${mutant.hash}`);
      const upstream = await runProgram(upstreamDir, program);
      const onMutant = await withPatch(mutantDir, patch, () => runProgram(mutantDir, program));
      const verdict = separation(upstream, onMutant);
      judged(mutant, program, verdict, into);
      const first = verdict.verdict === 'differs' ? verdict.differing[0] : undefined;
      log(
        `  ${bug.id} ${mutant.hash}: ${verdict.verdict}${first ? `: ${first.input}: ${first.mutant} (mutant) vs ${first.upstream} (upstream)` : ''}${verdict.verdict === 'broken' ? `: ${verdict.why}` : ''}`,
      );
    }
  } finally {
    rmSync(upstreamDir, { recursive: true, force: true });
    rmSync(mutantDir, { recursive: true, force: true });
  }
  return { ...counted, keptBy: 'separation', ...into };
}
