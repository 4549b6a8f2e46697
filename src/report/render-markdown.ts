// Renders a RunResult as Markdown: the terminal report, report.md, and (on GitHub) PR bodies and comments.
import type { AttemptRecord, RunResult, RunStatus, TestCounts } from '../core/run-result.ts';
import type { Finding } from '../core/findings.ts';
import { redactSecrets } from '../core/redact.ts';
import { removedFromRequestLine } from './removed-from-request.ts';
import { needsReview } from '../core/assessment-level.ts';
import { assessmentSection } from './assessment-section.ts';
import { environmentLines, versionMismatchSentences } from './environment-lines.ts';

const STATUS_TITLE: Record<RunStatus, string> = {
  tests_green: '✅ Verified fix',
  failed_to_green: '❌ Not fixed',
  escalated: '⚠️ Escalated to a human',
  nothing_to_fix: '➖ Nothing to fix',
  error: '💥 Error',
};

/** A green run whose assessment asks for a person's eyes (DESIGN.md §3.3): the tests pass, no more is claimed. */
const REVIEW_TITLE = '🔍 Tests pass: review before merging';

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
  // A fix verified on another version than the repository asks for is worth knowing before anything else.
  for (const sentence of versionMismatchSentences(result.environment)) out.push(`_${sentence}._`, '');
  if (result.error) out.push('```text', result.error.message, '```', '');
  // What to review comes first, where the reviewer starts reading; a verified run's assessment follows the judge's.
  if (review) out.push(...assessmentSection(result), '');
  if (result.status !== 'error' || result.baseline.total > 0) out.push(...testsTable(result), '');
  if (result.redGreen) out.push(...redGreenSection(result), '');
  if (result.verification) out.push(...verificationSection(result), '');
  if (!review) out.push(...assessmentSection(result), '');
  if (result.status === 'tests_green') out.push(...patchSection(result, options.maxDiffChars ?? 20_000), '');
  else if (result.status === 'failed_to_green' || result.status === 'escalated') out.push(...failingSection(result), '');
  if (result.attempts.length > 0) out.push(...attemptsSection(result.attempts), '');
  out.push(...spendSection(result), '');
  out.push(...runSection(result));
  return redactSecrets(`${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`);
}

function counts(c: TestCounts | null, key: 'passed' | 'failed' | 'skipped' | 'total'): string {
  if (!c) return '–';
  return c.parsed ? String(c[key]) : '?';
}

function testsTable(result: RunResult): string[] {
  const finalTitle = result.verification?.replayed ? 'Final (replayed)' : 'Final';
  const rows = [
    `| Tests | Baseline | ${finalTitle} |`,
    '| --- | ---: | ---: |',
    ...(['passed', 'failed', 'skipped', 'total'] as const).map((k) => `| ${k[0]?.toUpperCase()}${k.slice(1)} | ${counts(result.baseline, k)} | ${counts(result.final, k)} |`),
  ];
  if (!result.baseline.parsed) rows.push('', '_The test output could not be parsed into per-test results: the exit code alone decided._');
  return rows;
}

function list(title: string, ids: string[], max = 20): string {
  if (ids.length === 0) return `- ${title}: none`;
  const shown = ids.slice(0, max).map((id) => `\`${id}\``).join(', ');
  return `- ${title} (${ids.length}): ${shown}${ids.length > max ? `, … ${ids.length - max} more` : ''}`;
}

function findingLines(findings: Finding[]): string[] {
  return findings.map((f) => `  - **${f.kind}**: ${f.message}`);
}

function verificationSection(result: RunResult): string[] {
  const v = result.verification;
  if (!v) return [];
  return [
    '### Verification',
    `- Replayed on a pristine checkout: ${v.replayed ? (v.gate?.passed ? 'yes, full suite green' : 'yes, full suite **failing**') : '**no**'}`,
    list('Fail → pass', v.failToPass),
    list('Pass → fail', v.passToFail),
    list('Still failing', v.stillFailing),
    list('Newly skipped', v.newlySkipped),
    ...(v.replayed && v.gate?.passed ? [`- Evidence: ${evidenceWords(result)}`] : []),
    v.findings.length === 0 ? '- Constraints and test integrity: all held' : '- Findings:',
    ...findingLines(v.findings),
  ];
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

function diffBlock(patch: string, maxChars: number): string[] {
  const shown = patch.length > maxChars ? `${patch.slice(0, maxChars)}\n… (cut: the full patch is in the artifacts)\n` : patch;
  const f = fence(shown);
  return [`${f}diff`, shown.trimEnd(), f];
}

function patchSection(result: RunResult, maxDiffChars: number): string[] {
  const added = result.filesChanged.reduce((n, c) => n + c.added, 0);
  const removed = result.filesChanged.reduce((n, c) => n + c.removed, 0);
  return [
    '### Patch',
    `${result.filesChanged.length} file(s) changed, +${added} −${removed}, by engine \`${result.engine ?? '?'}\`.`,
    '',
    '| File | Change | + | − |',
    '| --- | --- | ---: | ---: |',
    ...result.filesChanged.map((c) => `| \`${c.path}\` | ${c.kind} | ${c.added} | ${c.removed} |`),
    '',
    '<details><summary>Diff</summary>',
    '',
    ...diffBlock(result.patch, maxDiffChars),
    '',
    '</details>',
  ];
}

function failingSection(result: RunResult): string[] {
  const last = [...result.attempts].reverse().find((a) => a.gate !== null);
  const failing = last?.failingTests ?? result.baselineTests.filter((t) => t.status === 'failed');
  const lines = ['### Still failing'];
  if (failing.length === 0) lines.push('_No per-test details: see the attempt logs._');
  for (const t of failing.slice(0, 20)) lines.push(`- \`${t.id}\`${t.message ? `: ${oneLine(t.message)}` : ''}`);
  if (failing.length > 20) lines.push(`- … ${failing.length - 20} more`);
  return lines;
}

function oneLine(text: string, max = 200): string {
  const line = text.split('\n').find((l) => l.trim().length > 0)?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

function attemptResult(a: AttemptRecord): string {
  if (a.findings.length > 0 && !a.gate?.passed) return `rejected: ${a.findings[0]?.kind}`;
  if (!a.gate) return a.continues ? 'continued in the next attempt' : 'no gate';
  if (a.gate.passed) return a.findings.length > 0 ? `green, not verified (${a.findings[0]?.kind})` : 'green';
  return a.gate.reason ?? 'failed';
}

function attemptsSection(attempts: AttemptRecord[]): string[] {
  return [
    '### Attempts',
    '| # | Engine | Started from | Result | Failing | Summary | Time |',
    '| ---: | --- | --- | --- | ---: | --- | ---: |',
    ...attempts.map(
      (a) =>
        `| ${a.attempt} | ${a.engine}${a.phase === 'write-test' ? ' (writes a test)' : ''} | ${a.startedFrom} | ${attemptResult(a)} | ${a.gate ? counts(a.gate.counts, 'failed') : '–'} | ${oneLine(a.summary, 120).replace(/\|/g, '\\|')} | ${(a.durationMs / 1000).toFixed(1)} s |`,
    ),
    ...attempts.filter((a) => a.findings.length > 0 && !a.gate?.passed).flatMap((a) => [`- Attempt ${a.attempt} findings:`, ...findingLines(a.findings)]),
    ...attempts.flatMap((a) => a.notes.map((n) => `- Attempt ${a.attempt}: ${n}`)),
    ...attempts.filter((a) => a.budgetStop).map((a) => `- Attempt ${a.attempt}: stopped by a budget: ${a.budgetStop?.message}`),
    ...attempts.flatMap((a) => (a.review ? [`- Attempt ${a.attempt}, review by ${a.review.reviewer}: ${reviewText(a.review)}`] : [])),
  ];
}

function reviewText(review: NonNullable<AttemptRecord['review']>): string {
  if (review.status === 'ok') return '**ok**';
  if (review.status === 'missing') return `**missing**: ${review.remainingTasks.map((t) => oneLine(t, 160)).join('; ')}`;
  return `**failed review**: ${review.reason ?? 'invalid answer'}`;
}

function redGreenSection(result: RunResult): string[] {
  const red = result.redGreen;
  if (!red) return [];
  if (red.notTried) return ['### Red → green', `The goal was not used: every test passed, and no failing test was written first (${red.notTried}).`];
  if (red.failedBefore.length === 0) return ['### Red → green', `No test that fails on the pristine code could be written: ${red.explanation ?? 'no proof'}. Without such a test there is nothing to fix.`];
  const after = new Map((red.after ?? []).map((t) => [t.id, t.status]));
  return [
    '### Red → green',
    `Every test passed, so a test showing the bug was written first (${red.testFiles.map((f) => `\`${f}\``).join(', ')}); it failed on the pristine code, and the fix may not change it.`,
    '',
    '| Test | Before the fix (pristine code) | After the fix (replayed) |',
    '| --- | --- | --- |',
    ...red.failedBefore.map((t) => `| \`${t.id}\` | failed${t.message ? `: ${oneLine(t.message, 100).replace(/\|/g, '\\|')}` : ''} | ${after.get(t.id) ?? 'not verified'} |`),
  ];
}

function money(usd: number): string {
  return usd === 0 ? '$0' : usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** Tokens and cost, in every report: the run's total, each engine's share, and the LLM budgets. */
function spendSection(result: RunResult): string[] {
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
    const daily = [s.limits.dailyUsd !== undefined ? `${money(s.limits.dailyUsd)}` : null, s.limits.dailyTokens !== undefined ? `${s.limits.dailyTokens} tokens` : null].filter(Boolean).join(', ');
    lines.push(
      `LLM budget used: ${s.modelCalls} model calls, ${s.toolCalls}/${s.limits.toolCalls} tool calls, ${s.tokens}/${s.limits.tokens} tokens, ${money(s.usd)}/${money(s.limits.usd)}, ${Math.round(s.ms / 1000)}/${Math.round(s.limits.timeMs / 1000)} s${daily ? `; per repository per day: ${daily}` : ''}.`,
    );
  }
  return lines;
}

function runSection(result: RunResult): string[] {
  const sandbox =
    result.sandbox === 'process'
      ? '`process` ⚠️ no isolation beyond a scrubbed environment, timeouts and output caps'
      : `\`${result.sandbox}\``;
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

/** What the verdict rested on: per-test results, or the exit code alone, and the second observation. */
function evidenceWords(result: RunResult): string {
  const v = result.verification;
  const counts = v?.gate?.counts;
  const witness = counts?.witness ? `, and the runner's own report (${counts.witness.runner}'s JUnit XML: ${counts.witness.total} tests, ${counts.witness.failed} failed)` : '';
  const perTest = counts?.parsed ? `per-test results of the replay (${counts.total} tests) agreeing with its exit code${witness}` : `the exit code alone (the output could not be read per test; \`test.evidence: exit-code\`)${witness}`;
  const alone = v?.alone;
  const second = !alone ? '' : alone.ran > 0 ? `; each fixed test also passed run on its own (${alone.ran}, e.g. \`${alone.command}\`)` : '; the fixed tests could not be run on their own (the runner or the command does not allow selecting one)';
  return perTest + second;
}
