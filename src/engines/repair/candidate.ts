// Shared vocabulary of the repair engine: suspicious locations in, candidate patches out.

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
  | 'change-receiver';

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
}

/** Generates candidates for the given lines of one file's source. Pure: no I/O beyond what it is given. */
export interface CandidateGenerator {
  /** File extensions it handles, with the dot: `.js`, `.py`. */
  readonly extensions: readonly string[];
  generate(file: string, source: string, lines: ReadonlySet<number>): Promise<Candidate[]>;
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
