// Wrong-but-plausible patches' raw material (issue 47, item 2): mutants of a real bug's upstream fix
// (its added lines mutated in the fixed file) and of its buggy lines (the lines it removes, mutated
// in the buggy file), each as a patch against the buggy snapshot. The mutations are the repair
// engine's own templates of the kinds a wrong fix takes (an operator swapped, a bound moved by one,
// a condition negated or narrowed, a statement deleted) and mutant-extra.ts's (a condition made
// constant, a fallback dropped or added), and the fix kept only at the failing tests' literals
// (mutant-special.ts). None is yet known to pass the tests: mutant-keep.ts runs them.
import { extname } from 'node:path';
import { applyEdits, minimalEdits, type TemplateId, type TextEdit } from '../../src/engines/repair/candidate.ts';
import { generatorFor } from '../../src/engines/repair/generators.ts';
import { fileDiff } from '../../src/workspace/unified-diff.ts';
import { fixLines, type FixLines } from './fix-lines.ts';
import { extraMutations } from './mutant-extra.ts';
import { specialCases } from './mutant-special.ts';
import { patchHash } from './real-corpus.ts';

/** The repair templates whose mutations look like a wrong fix rather than a rewrite. */
const WRONG_FIX_TEMPLATES: ReadonlySet<TemplateId> = new Set<TemplateId>([
  'relational-operator',
  'equality-operator',
  'logical-operator',
  'arithmetic-operator',
  'off-by-one-literal',
  'off-by-one-bound',
  'loop-bound',
  'negate-condition',
  'drop-conjunct',
  'delete-statement',
]);

// `===` → `==` on the same operands almost never changes a result: a run of the suite spent for nothing.
const LOOSE_EQUALITY = /^`(===|!==)` → `(==|!=)`$/;

export interface Mutant {
  /** What was mutated: the upstream fix's lines, or the buggy lines it replaces. */
  origin: 'fix' | 'buggy';
  file: string;
  line: number;
  kind: string;
  description: string;
  /** Against the buggy snapshot, as git applies it. */
  patch: string;
  hash: string;
}

export interface MutantSources {
  fixPatch: string;
  /** A file's text in the buggy snapshot and with the upstream fix, or null when absent. */
  buggy: (file: string) => string | null;
  fixed: (file: string) => string | null;
  /** Literals the failing tests add (mutant-special.ts): the special cases are made of them. */
  literals?: readonly string[];
}

interface Mutation {
  kind: string;
  line: number;
  edits: TextEdit[];
  description: string;
}

/** Where each line of `text` starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The fix kept only at the tests' literals, on each line it replaces one for one (mutant-special.ts). */
function specialCasesOf(site: FixLines, buggy: string, fixed: string, literals: readonly string[]): Mutation[] {
  const [oldStarts, newStarts] = [lineStarts(buggy), lineStarts(fixed)];
  const lineOf = (text: string, starts: number[], n: number) =>
    text.slice(starts[n - 1] ?? 0, (starts[n] ?? text.length + 1) - 1);
  return site.pairs.flatMap(([oldLine, newLine]) =>
    specialCases(
      lineOf(buggy, oldStarts, oldLine),
      lineOf(fixed, newStarts, newLine),
      newStarts[newLine - 1] ?? 0,
      newLine,
      literals,
      extname(site.file) === '.py',
    ).map((c) => ({ ...c, kind: 'special-case' })),
  );
}

async function mutationsOf(file: string, source: string, lines: number[]): Promise<Mutation[]> {
  const generator = generatorFor(file);
  const templated = generator
    ? (await generator.generate(file, source, new Set(lines)).catch(() => []))
        .filter((c) => WRONG_FIX_TEMPLATES.has(c.template))
        .map((c) => ({
          kind: c.template,
          line: c.line,
          edits: c.edits,
          description: c.description.replace(/ at [^ ]+:\d+$/, ''),
        }))
    : [];
  const extra = extraMutations(source, lines, extname(file) === '.py');
  return [...templated, ...extra]
    .filter((m) => !LOOSE_EQUALITY.test(m.description))
    .filter((m) => !generator?.parses || generator.parses(file, applyEdits(source, m.edits)));
}

/** Text compared as the corpus's judge compares a fix: blank lines and trailing blanks ignored. */
const normalized = (text: string | null) =>
  (text ?? '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .join('\n');

function patchOf(files: string[], sources: MutantSources, after: Map<string, string | null>): string {
  return files
    .map((file) => {
      const before = sources.buggy(file);
      const now = after.has(file) ? (after.get(file) ?? null) : before;
      if (now === before) return '';
      return fileDiff({
        path: file,
        before: before === null ? null : Buffer.from(before),
        after: now === null ? null : Buffer.from(now),
        mode: '100644',
      });
    })
    .join('');
}

/**
 * Every mutant, without duplicates and without the upstream fix itself, ordered so that the first
 * ones of any prefix mix kinds and origins (a cap on how many run keeps variety).
 */
export async function generateMutants(sources: MutantSources): Promise<Mutant[]> {
  const sites = fixLines(sources.fixPatch);
  const files = sites.map((s) => s.file);
  const fixedFiles = new Map(files.map((f) => [f, sources.fixed(f)]));
  const upstream = files.map((f) => normalized(fixedFiles.get(f) ?? null)).join('\0');
  const seen = new Set<string>();
  const byKind = new Map<string, Mutant[]>();
  for (const site of sites) {
    for (const origin of ['fix', 'buggy'] as const) {
      const source = origin === 'fix' ? fixedFiles.get(site.file) : sources.buggy(site.file);
      const lines = origin === 'fix' ? site.fixed : site.buggy;
      if (source === null || source === undefined || lines.length === 0) continue;
      const buggySource = sources.buggy(site.file);
      const special =
        origin === 'fix' && buggySource !== null && sources.literals?.length
          ? specialCasesOf(site, buggySource, source, sources.literals).filter(
              (m) => generatorFor(site.file)?.parses?.(site.file, applyEdits(source, m.edits)) ?? true,
            )
          : [];
      for (const m of [...(await mutationsOf(site.file, source, lines)), ...special]) {
        const edits = minimalEdits(source, m.edits);
        if (edits.length === 0) continue;
        const after = new Map(origin === 'fix' ? fixedFiles : []);
        after.set(site.file, applyEdits(source, edits));
        if (files.map((f) => normalized(after.has(f) ? (after.get(f) ?? null) : sources.buggy(f))).join('\0') === upstream)
          continue;
        const patch = patchOf(files, sources, after);
        const hash = patchHash(patch);
        if (!patch || seen.has(hash)) continue;
        seen.add(hash);
        const key = `${origin} ${m.kind}`;
        byKind.set(key, [
          ...(byKind.get(key) ?? []),
          { origin, file: site.file, line: m.line, kind: m.kind, description: m.description, patch, hash },
        ]);
      }
    }
  }
  return interleave([...byKind.values()]);
}

/** The first of each group, then the second of each, and so on. */
function interleave<T>(groups: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; groups.some((g) => i < g.length); i++) for (const g of groups) if (i < g.length) out.push(g[i] as T);
  return out;
}
