// Renders a RunResult as Markdown: report.md, stdout when it is not a terminal, and (on GitHub) PR
// bodies and comments. The sections a terminal shows too are exported for render-terminal.ts.
import { startedFromLine } from '../core/working-tree.ts';
import type { AttemptRecord, RunResult, RuntimeGuardStatus } from '../core/run-result.ts';
import type { Finding } from '../core/findings.ts';
import { redactSecrets } from '../core/redact.ts';
import { removedFromRequestLine } from './removed-from-request.ts';
import { needsReview } from '../core/assessment-level.ts';
import { assessmentSection } from './assessment-section.ts';
import { checksSection } from './checks-section.ts';
import { flakySection } from './flaky-section.ts';
import {
  attemptResult,
  COUNT_KEYS,
  counts,
  finalTitle,
  money,
  NO_FAILING_DETAILS,
  oneLine,
  PATCH_CUT,
  patchWords,
  replayedWords,
  REVIEW_TITLE,
  SANDBOX_WARNING,
  STATUS_TITLE,
  stillFailingTests,
  UNPARSED_NOTE,
  valuesWords,
} from './report-words.ts';
import { environmentLines, versionMismatchSentences } from './environment-lines.ts';
import { COUNTS_ONLY_NOTE, evidenceWords } from './evidence-words.ts';

export interface RenderOptions {
  /** Longest diff shown inline; longer patches are cut (the full patch is an artifact). */
  maxDiffChars?: number;
}

export function renderMarkdownReport(result: RunResult, options: RenderOptions = {}): string {
  const out: string[] = [];
  const review = needsReview(result);
  out.push(`## fixloop: ${review ? REVIEW_TITLE : STATUS_TITLE[result.status]}`, '', result.headline, '');
  const removed = removedFromRequestLine(result.request?.removed);
  if (removed) out.push(`_${removed}_`, '');
  const started = startedFromLine(result.repository.workingTree);
  // Said when the run's start is not simply the last commit: changes taken in, or left out (--head).
  if (started && (result.repository.workingTree?.files.length || !result.repository.workingTree?.included))
    out.push(`_${started[0]?.toUpperCase()}${started.slice(1)}._`, '');
  // A fix verified on another version than the repository asks for is worth knowing before anything else.
  for (const sentence of versionMismatchSentences(result.environment)) out.push(`_${sentence}._`, '');
  if (result.error) out.push('```text', result.error.message, '```', '');
  // What to review comes first, where the reviewer starts reading; a verified run's assessment follows the judge's.
  if (review) out.push(...assessmentSection(result), '');
  if (result.status !== 'error' || result.baseline.total > 0) out.push(...testsTable(result), '');
  if (result.checks) out.push(...checksSection(result), '');
  if (result.redGreen) out.push(...redGreenSection(result), '');
  if (result.verification) out.push(...verificationSection(result), '');
  if (result.flakiness) out.push(...flakySection(result), '');
  if (!review) out.push(...assessmentSection(result), '');
  if (result.status === 'tests_green') out.push(...patchSection(result, options.maxDiffChars ?? 20_000), '');
  else if (result.status === 'failed_to_green' || result.status === 'escalated') out.push(...failingSection(result), '');
  if (result.attempts.length > 0) out.push(...attemptsSection(result.attempts), '');
  out.push(...spendSection(result), '');
  out.push(...runSection(result));
  return redactSecrets(
    `${out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd()}\n`,
  );
}

/** Also the terminal's (render-terminal.ts), through markdown-text.ts. */
export function testsTable(result: RunResult): string[] {
  const rows = [
    `| Tests | Baseline | ${finalTitle(result)} |`,
    '| --- | ---: | ---: |',
    ...COUNT_KEYS.map(
      (k) => `| ${k[0]?.toUpperCase()}${k.slice(1)} | ${counts(result.baseline, k)} | ${counts(result.final, k)} |`,
    ),
  ];
  if (!result.baseline.parsed) rows.push('', `_${UNPARSED_NOTE}_`);
  else if (result.baseline.view === 'counts') rows.push('', `_${COUNTS_ONLY_NOTE}_`);
  return rows;
}

function list(title: string, ids: string[], max = 20): string {
  if (ids.length === 0) return `- ${title}: none`;
  const shown = ids
    .slice(0, max)
    .map((id) => `\`${id}\``)
    .join(', ');
  return `- ${title} (${ids.length}): ${shown}${ids.length > max ? `, … ${ids.length - max} more` : ''}`;
}

function findingLines(findings: Finding[]): string[] {
  return findings.map((f) => `  - **${f.kind}**: ${f.message}`);
}

/** Also the terminal's (render-terminal.ts), through markdown-text.ts. */
export function verificationSection(result: RunResult): string[] {
  const v = result.verification;
  if (!v) return [];
  return [
    '### Verification',
    `- Replayed on a pristine checkout: ${replayedWords(result)}`,
    list('Fail → pass', v.failToPass),
    list('Pass → fail', v.passToFail),
    list('Still failing', v.stillFailing),
    list('Newly skipped', v.newlySkipped),
    ...(v.flaky ? [list('Flaky, not counted', v.flaky)] : []),
    ...(v.replayed && (v.gate?.passed || v.passed) ? [`- Evidence: ${evidenceWords(result)}`] : []),
    ...(v.runtimeGuard ? [`- ${runtimeGuardWords(v.runtimeGuard)}`] : []),
    v.findings.length === 0 ? '- Constraints and test integrity: all held' : '- Findings:',
    ...findingLines(v.findings),
  ];
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

function diffBlock(patch: string, maxChars: number): string[] {
  const shown = patch.length > maxChars ? `${patch.slice(0, maxChars)}\n${PATCH_CUT}\n` : patch;
  const f = fence(shown);
  return [`${f}diff`, shown.trimEnd(), f];
}

function patchSection(result: RunResult, maxDiffChars: number): string[] {
  return [
    '### Patch',
    patchWords(result, `\`${result.engine ?? '?'}\``),
    '',
    ...filesTable(result),
    '',
    '<details><summary>Diff</summary>',
    '',
    ...diffBlock(result.patch, maxDiffChars),
    '',
    '</details>',
  ];
}

/** Also the terminal's (render-terminal.ts), through markdown-text.ts. */
export function filesTable(result: RunResult): string[] {
  return [
    '| File | Change | + | − |',
    '| --- | --- | ---: | ---: |',
    ...result.filesChanged.map((c) => `| \`${c.path}\` | ${c.kind} | ${c.added} | ${c.removed} |`),
  ];
}

function failingSection(result: RunResult): string[] {
  const failing = stillFailingTests(result);
  const lines = ['### Still failing'];
  if (failing.length === 0) lines.push(`_${NO_FAILING_DETAILS}_`);
  for (const t of failing.slice(0, 20)) {
    const values = valuesWords(t);
    lines.push(`- \`${t.id}\`${t.message ? `: ${oneLine(t.message)}` : ''}${values ? ` (${values})` : ''}`);
  }
  if (failing.length > 20) lines.push(`- … ${failing.length - 20} more`);
  return lines;
}

/** Also the terminal's (render-terminal.ts), through markdown-text.ts. */
export function attemptsSection(attempts: AttemptRecord[]): string[] {
  return [
    '### Attempts',
    '| # | Engine | Started from | Result | Failing | Summary | Time |',
    '| ---: | --- | --- | --- | ---: | --- | ---: |',
    ...attempts.map(
      (a) =>
        `| ${a.attempt} | ${a.engine}${a.phase === 'write-test' ? ' (writes a test)' : ''} | ${a.startedFrom} | ${attemptResult(a)} | ${a.gate ? counts(a.gate.counts, 'failed') : '–'} | ${oneLine(a.summary, 120).replace(/\|/g, '\\|')} | ${(a.durationMs / 1000).toFixed(1)} s |`,
    ),
    ...attempts
      .filter((a) => a.findings.length > 0 && !a.gate?.passed)
      .flatMap((a) => [`- Attempt ${a.attempt} findings:`, ...findingLines(a.findings)]),
    ...attempts.flatMap((a) => a.notes.map((n) => `- Attempt ${a.attempt}: ${n}`)),
    ...attempts.filter((a) => a.budgetStop).map((a) => `- Attempt ${a.attempt}: stopped by a budget: ${a.budgetStop?.message}`),
    ...attempts.flatMap((a) =>
      a.review ? [`- Attempt ${a.attempt}, review by ${a.review.reviewer}: ${reviewText(a.review)}`] : [],
    ),
  ];
}

function reviewText(review: NonNullable<AttemptRecord['review']>): string {
  if (review.status === 'ok') return '**ok**';
  if (review.status === 'missing') return `**missing**: ${review.remainingTasks.map((t) => oneLine(t, 160)).join('; ')}`;
  return `**failed review**: ${review.reason ?? 'invalid answer'}`;
}

/** Also the terminal's (render-terminal.ts), through markdown-text.ts. */
export function redGreenSection(result: RunResult): string[] {
  const red = result.redGreen;
  if (!red) return [];
  if (red.notTried)
    return [
      '### Red → green',
      `The goal was not used: every test passed, and no failing test was written first (${red.notTried}).`,
    ];
  if (red.failedBefore.length === 0)
    return [
      '### Red → green',
      `No test that fails on the pristine code could be written: ${red.explanation ?? 'no proof'}. Without such a test there is nothing to fix.`,
    ];
  const after = new Map((red.after ?? []).map((t) => [t.id, t.status]));
  return [
    '### Red → green',
    `Every test passed, so a test showing the bug was written first (${red.testFiles.map((f) => `\`${f}\``).join(', ')}); it failed on the pristine code, and the fix may not change it.`,
    '',
    '| Test | Before the fix (pristine code) | After the fix (replayed) |',
    '| --- | --- | --- |',
    ...red.failedBefore.map(
      (t) =>
        `| \`${t.id}\` | failed${t.message ? `: ${oneLine(t.message, 100).replace(/\|/g, '\\|')}` : ''} | ${after.get(t.id) ?? 'not verified'} |`,
    ),
  ];
}

/** Tokens and cost, in every report: the run's total, each engine's share, and the LLM budgets. Also the terminal's. */
export function spendSection(result: RunResult): string[] {
  const byEngine = new Map<string, { usd: number; tokens: number }>();
  const add = (name: string, cost: { usd: number; tokens: number }) => {
    const sum = byEngine.get(name) ?? { usd: 0, tokens: 0 };
    byEngine.set(name, { usd: sum.usd + cost.usd, tokens: sum.tokens + cost.tokens });
  };
  for (const a of result.attempts) {
    add(a.engine, a.cost);
    if (a.review) add(`review (${a.review.reviewer})`, a.review.cost);
  }
  const shares = [...byEngine].map(([name, c]) => `${name} ${money(c.usd)}, ${c.tokens} tokens`).join('; ');
  const lines = [`**Spend**: ${money(result.cost.usd)}, ${result.cost.tokens} tokens${shares ? ` (${shares})` : ''}.`];
  const s = result.spend;
  if (s) {
    const daily = [
      s.limits.dailyUsd !== undefined ? `${money(s.limits.dailyUsd)}` : null,
      s.limits.dailyTokens !== undefined ? `${s.limits.dailyTokens} tokens` : null,
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(
      `LLM budget used: ${s.modelCalls} model calls, ${s.toolCalls}/${s.limits.toolCalls} tool calls, ${s.tokens}/${s.limits.tokens} tokens, ${money(s.usd)}/${money(s.limits.usd)}, ${Math.round(s.ms / 1000)}/${Math.round(s.limits.timeMs / 1000)} s${daily ? `; per repository per day: ${daily}` : ''}.`,
    );
  }
  return lines;
}

/** Also the terminal's (render-terminal.ts), through markdown-text.ts. */
export function runSection(result: RunResult): string[] {
  const sandbox = result.sandbox === 'process' ? `\`process\` ${SANDBOX_WARNING}` : `\`${result.sandbox}\``;
  return [
    '<details><summary>Run details</summary>',
    '',
    `- Run: \`${result.runId}\`, ${result.startedAt}, ${(result.durationMs / 1000).toFixed(1)} s`,
    `- Repository: \`${result.repository.source}\`${result.repository.ref ? ` (${result.repository.ref})` : ''} at \`${result.repository.sha.slice(0, 12) || '?'}\``,
    `- Test command: \`${result.testCommand || '(none)'}\``,
    `- Engines: ${result.engines.map((e) => `\`${e}\``).join(' → ')}`,
    `- Cost: $${result.cost.usd.toFixed(2)}, ${result.cost.tokens} tokens`,
    `- Sandbox: ${sandbox}`,
    ...environmentLines(result),
    `- Artifacts: \`${result.artifactsDir}\``,
    '',
    '</details>',
  ];
}

/** The judge's eyes inside the test processes (docs/design.md §3.2.7). */
function runtimeGuardWords(guard: RuntimeGuardStatus): string {
  if (!guard.available)
    return `Runtime guard: not available for this runner${guard.runner ? ` (${guard.runner}'s test processes did not load it at the baseline)` : ''}${guard.accepted ? '; accepted by `test.evidence: exit-code`' : ''}`;
  return `Runtime guard: loaded in ${guard.processes} ${guard.runner} process${guard.processes === 1 ? '' : 'es'}, before the repository's code`;
}
