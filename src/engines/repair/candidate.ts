// Shared vocabulary of the repair engine: suspicious locations in, candidate patches out.
import type { OutputDifference } from './output-differences.ts';

/** A source line suspected of holding the bug, with a score in (0, 1]. */
export interface SuspiciousLine {
  /** Repository-relative POSIX path (never a test file, never a dependency). */
  file: string;
  /** 1-based line number. */
  line: number;
  score: number;
  /** Which signals pointed here, for the report (e.g. `stack`, `diff`, `ochiai`). */
  signals: string[];
}

/** The repair templates. Their order of trial comes from `priors.ts`. */
export type TemplateId =
  | 'relational-operator'
  | 'equality-operator'
  | 'logical-operator'
  | 'arithmetic-operator'
  | 'bitwise-operator'
  | 'off-by-one-literal'
  | 'off-by-one-bound'
  | 'negate-condition'
  | 'drop-conjunct'
  | 'swap-arguments'
  | 'swap-operands'
  | 'replace-identifier'
  | 'change-return-value'
  | 'add-null-guard'
  | 'min-max'
  | 'any-all'
  | 'loop-bound'
  | 'change-method'
  | 'change-receiver'
  | 'normalize-string'
  | 'typo-literal'
  | 'add-conjunct'
  | 'honor-option'
  | 'presence-check'
  | 'widen-type-check'
  | 'regex-literal'
  | 'delete-statement'
  | 'remove-unused-declaration'
  | 'regroup-logic'
  | 'extend-chain'
  | 'filter-empty';

/** One text replacement in a file, by character offsets into the file's content (UTF-16, as JS strings). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

export interface Candidate {
  file: string;
  /** Non-overlapping edits in one file, sorted by start. */
  edits: TextEdit[];
  template: TemplateId;
  /** 1-based line the mutation is anchored on (matched against SuspiciousLine). */
  line: number;
  /** Short description for the report, e.g. "`<` → `<=` at src/a.js:12". */
  description: string;
  /** Characters changed (sum over edits of max(removed, inserted)); smaller patches are tried first. */
  size: number;
  /** What it inserts is what the failing tests show (a type their names write out, the blank their output lacks): not charged for size. */
  fromTests?: boolean;
}

/** A generator that could not do its work (timed out, crashed): said in the attempt's summary and notes, never taken for "no template applies". */
export class GenerationError extends Error {
  /** What the generator made before or besides its failure (e.g. every other template's candidates). */
  readonly candidates: Candidate[];
  constructor(message: string, candidates: Candidate[] = []) {
    super(message);
    this.candidates = candidates;
  }
}

/** What the failing tests tell the templates beyond the suspicious lines. */
export interface GenerationContext {
  /** Options the failing tests pass by name (`{ nonegate: true }`): option-names.ts. */
  optionNames?: readonly string[];
  /** `typeof` names of the values the failing tests' names write out (value-types.ts). */
  valueTypes?: readonly string[];
  /** How the failing tests' expected and actual values differ, when only in one way (output-differences.ts). */
  outputDifferences?: readonly OutputDifference[];
  /** Every file candidates are generated for, with its source: what a template may know of the others (a callee's parameters). */
  sources?: ReadonlyMap<string, string>;
}

/** Generates candidates for the given lines of one file's source. Pure: no I/O beyond what it is given. */
export interface CandidateGenerator {
  /** File extensions it handles, with the dot: `.js`, `.py`. */
  readonly extensions: readonly string[];
  generate(file: string, source: string, lines: ReadonlySet<number>, context?: GenerationContext): Promise<Candidate[]>;
  /** Whether a file with a candidate applied still parses; asked only of the candidates that will be tried. */
  parses?(file: string, source: string): boolean;
}

/**
 * The edits as the smallest replacements that have the same effect (what they keep of the text they
 * replace trimmed off both ends), sorted; edits that change nothing are dropped. Two candidates with
 * the same minimal edits write the same file: their key tells duplicates apart without building it.
 */
export function minimalEdits(source: string, edits: readonly TextEdit[]): TextEdit[] {
  const out: TextEdit[] = [];
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    const old = source.slice(edit.start, edit.end);
    let head = 0;
    while (head < old.length && head < edit.text.length && old[head] === edit.text[head]) head++;
    let tail = 0;
    while (
      tail < old.length - head &&
      tail < edit.text.length - head &&
      old[old.length - 1 - tail] === edit.text[edit.text.length - 1 - tail]
    )
      tail++;
    if (head === old.length && head === edit.text.length) continue;
    out.push({ start: edit.start + head, end: edit.end - tail, text: edit.text.slice(head, edit.text.length - tail) });
  }
  return out;
}

export function editsKey(file: string, edits: readonly TextEdit[]): string {
  return `${file}\0${edits.map((e) => `${e.start}:${e.end}:${e.text}`).join('\0')}`;
}

export function applyEdits(source: string, edits: readonly TextEdit[]): string {
  let out = '';
  let cursor = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    out += source.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return out + source.slice(cursor);
}
