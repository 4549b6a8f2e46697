// Renders a RunResult as text for a terminal: what `fixloop run` prints when stdout is a TTY. The
// same sections and words as the Markdown report (render-markdown.ts, report-words.ts), without the
// markup a terminal shows raw (`<details>`, tables, backticks), with colour when the style has it.
// Where the terminal differs: the error is said once (the headline would repeat it), a failing test
// shows what its assertion expected and got, and the diff is printed whole, its lines coloured.
import { checksSection } from './checks-section.ts';
import { flakySection } from './flaky-section.ts';
import { needsReview } from '../core/assessment-level.ts';
import { redactSecrets } from '../core/redact.ts';
import { startedFromLine } from '../core/working-tree.ts';
import type { RunResult, RunStatus, TestOutcome } from '../core/run-result.ts';
import { assessmentSection } from './assessment-section.ts';
import { inlineText, markdownLinesToText } from './markdown-text.ts';
import { removedFromRequestLine } from './removed-from-request.ts';
import { versionMismatchSentences } from './environment-lines.ts';
import {
  attemptsSection,
  filesTable,
  redGreenSection,
  runSection,
  spendSection,
  testsTable,
  verificationSection,
} from './render-markdown.ts';
import {
  NO_FAILING_DETAILS,
  oneLine,
  PATCH_CUT,
  patchWords,
  REVIEW_TITLE,
  STATUS_TITLE,
  stillFailingTests,
  valuesWords,
} from './report-words.ts';
import { PLAIN_STYLE, type TerminalStyle } from './terminal-style.ts';

export interface TerminalRenderOptions {
  style?: TerminalStyle;
  /** Longest diff shown; longer patches are cut (the full patch is an artifact). */
  maxDiffChars?: number;
}

const TONE: Record<RunStatus, keyof Pick<TerminalStyle, 'good' | 'bad' | 'warn' | 'strong'>> = {
  tests_green: 'good',
  failed_to_green: 'bad',
  escalated: 'warn',
  nothing_to_fix: 'strong',
  flaky: 'warn',
  error: 'bad',
};

export function renderTerminalReport(result: RunResult, options: TerminalRenderOptions = {}): string {
  const style = options.style ?? PLAIN_STYLE;
  const text = (lines: string[]) => markdownLinesToText(lines, style);
  const review = needsReview(result);
  const out: string[] = [title(result, review, style), ...opening(result, style), ''];
  if (review) out.push(...text(assessmentSection(result)), '');
  if (result.status !== 'error' || result.baseline.total > 0) out.push(...text(testsTable(result)), '');
  if (result.checks) out.push(...text(checksSection(result)), '');
  if (result.redGreen) out.push(...text(redGreenSection(result)), '');
  if (result.verification) out.push(...text(verificationSection(result)), '');
  if (result.flakiness) out.push(...text(flakySection(result)), '');
  if (!review) out.push(...text(assessmentSection(result)), '');
  if (result.status === 'tests_green') out.push(...patchSection(result, style, options.maxDiffChars ?? 20_000), '');
  else if (result.status === 'failed_to_green' || result.status === 'escalated') out.push(...failingSection(result, style), '');
  if (result.attempts.length > 0) out.push(...text(attemptsSection(result.attempts)), '');
  out.push(...text(spendSection(result)), '');
  out.push(...text(runSection(result)));
  return redactSecrets(
    `${out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd()}\n`,
  );
}

function title(result: RunResult, review: boolean, style: TerminalStyle): string {
  const words = review ? REVIEW_TITLE : STATUS_TITLE[result.status];
  return `fixloop: ${(review ? style.warn : style[TONE[result.status]])(words)}`;
}

/** The headline, or for an error its whole message (the headline is its first line: said once). */
function opening(result: RunResult, style: TerminalStyle): string[] {
  const removed = removedFromRequestLine(result.request?.removed);
  const first = result.error ? result.error.message : result.headline;
  const tree = result.repository.workingTree;
  // As in the Markdown: said when the run's start is not simply the last commit.
  const started = tree && (tree.files.length > 0 || !tree.included) ? startedFromLine(tree) : null;
  const mismatches = versionMismatchSentences(result.environment).map((sentence) => style.warn(`${sentence}.`));
  return [
    inlineText(first, style),
    ...(removed ? [style.dim(removed)] : []),
    ...(started ? [style.dim(`${started[0]?.toUpperCase()}${started.slice(1)}.`)] : []),
    ...mismatches,
  ];
}

function failingSection(result: RunResult, style: TerminalStyle): string[] {
  const failing = stillFailingTests(result);
  const lines = [style.heading('Still failing')];
  if (failing.length === 0) lines.push(style.dim(NO_FAILING_DETAILS));
  for (const t of failing.slice(0, 20)) lines.push(...failingTest(t, style));
  if (failing.length > 20) lines.push(`- … ${failing.length - 20} more`);
  return lines;
}

/** `- id: message`, and below it what the assertion expected and got when the runner said so. */
function failingTest(test: TestOutcome, style: TerminalStyle): string[] {
  const values = valuesWords({
    ...test,
    ...(test.expected !== undefined ? { expected: style.good(test.expected) } : {}),
    ...(test.actual !== undefined ? { actual: style.bad(test.actual) } : {}),
  });
  return [`- ${style.code(test.id)}${test.message ? `: ${oneLine(test.message)}` : ''}`, ...(values ? [`    ${values}`] : [])];
}

function patchSection(result: RunResult, style: TerminalStyle, maxChars: number): string[] {
  const patch = result.patch.length > maxChars ? `${result.patch.slice(0, maxChars)}\n${PATCH_CUT}\n` : result.patch;
  const diff = patch
    .trimEnd()
    .split('\n')
    .map((line) => diffLine(line, style));
  return [
    style.heading('Patch'),
    patchWords(result, style.code(result.engine ?? '?')),
    '',
    ...markdownLinesToText(filesTable(result), style),
    '',
    ...diff,
  ];
}

function diffLine(line: string, style: TerminalStyle): string {
  if (/^(\+\+\+|---|diff |index )/.test(line)) return style.strong(line);
  if (line.startsWith('@@')) return style.code(line);
  if (line.startsWith('+')) return style.good(line);
  if (line.startsWith('-')) return style.bad(line);
  return line;
}
