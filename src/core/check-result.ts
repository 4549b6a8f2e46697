// A check that is not a test suite (docs/design.md §1.5): a lint, format or type-check command given
// as the gate (`--check`, `checks:`), beside the suite, which then guards against regressions. Its
// exit code decides, and its output is read per diagnostic where the tool has a format fixloop knows
// (src/checks/): progress is counted per diagnostic, as per test for suites.

/** One thing a check tool reports: a file, where in it, the rule, the message. */
export interface Diagnostic {
  /** The tool that reported it, as its descriptor names it (src/checks/): `eslint`, `tsc`, `black`. */
  tool: string;
  /** Repository-relative POSIX path; null when the tool named none. */
  file: string | null;
  /** 1-based, when the tool says. */
  line?: number;
  column?: number;
  /** The rule or code (`no-unused-vars`, `TS2322`, `F401`), when the tool names one. */
  rule?: string;
  message: string;
}

/** One run of one check command. */
export interface CheckRun {
  command: string;
  /** The tool the command runs (directly or through an npm script), when fixloop knows it. */
  tool: string | null;
  passed: boolean;
  /** How a failing check ended: its exit code, or killed (null) for its time limit or a signal. */
  exitCode?: number | null;
  timedOut?: boolean;
  diagnostics: Diagnostic[];
  /** True when a failing check's output was read per diagnostic (at least one), or the check passed. */
  parsed: boolean;
  /** The command's combined output, capped. */
  output: string;
  durationMs: number;
}

/** A check run as the RunResult keeps it: its counts and the first diagnostics, never its whole output. */
export interface CheckSummary {
  command: string;
  tool: string | null;
  passed: boolean;
  exitCode?: number;
  parsed: boolean;
  diagnostics: number;
  /** The first diagnostics, for the report. */
  shown: Diagnostic[];
}

/** The checks of a run: the commands, and what they said at the baseline. */
export interface CheckRecord {
  commands: string[];
  baseline: CheckSummary[];
}

const SHOWN = 20;

export function checkSummary(run: CheckRun): CheckSummary {
  return {
    command: run.command,
    tool: run.tool,
    passed: run.passed,
    ...(typeof run.exitCode === 'number' ? { exitCode: run.exitCode } : {}),
    parsed: run.parsed,
    diagnostics: run.diagnostics.length,
    shown: run.diagnostics.slice(0, SHOWN),
  };
}

/** `src/a.js:1:7` (or the file alone, or nothing). */
export function diagnosticPlace(d: Diagnostic): string {
  if (!d.file) return '';
  return d.line === undefined ? d.file : `${d.file}:${d.line}${d.column !== undefined ? `:${d.column}` : ''}`;
}

/** `src/a.js:1:7 'unused' is assigned a value but never used (no-unused-vars)`. */
export function diagnosticText(d: Diagnostic): string {
  const place = diagnosticPlace(d);
  return `${place ? `${place} ` : ''}${d.message}${d.rule ? ` (${d.rule})` : ''}`;
}
