// What fixloop says on the forge (GitHub), in one place: status comments, refusals, replies. Short, actionable,
// and never a stack trace.
import type { RunProgress } from '../loop/progress.ts';
import type { JobInfo } from '../jobs/run-store.ts';
import type { RunResult } from '../core/run-result.ts';
import { needsReview } from '../core/assessment-level.ts';
import { flakyCountWords } from '../core/flaky-test.ts';

export const NEEDS_HUMAN_LABEL = 'fixloop:needs-human';

export function queuedMessage(runId: string, actor: string | null, instructions: string): string {
  const who = actor ? ` for @${actor}` : '';
  const extra = instructions ? `\n\n> ${instructions.split('\n').join('\n> ')}` : '';
  return `⏳ **fixloop** run \`${runId}\` queued${who}.${extra}`;
}

export function progressMessage(runId: string, p: RunProgress): string {
  const step =
    p.phase === 'attempt' && p.attempt !== undefined
      ? `attempt ${p.attempt}/${p.maxAttempts ?? '?'}${p.failing !== undefined ? `, ${p.failing} failing` : ''}`
      : `${p.phase}${p.failing !== undefined ? `, ${p.failing} failing` : ''}`;
  return `🔧 **fixloop** run \`${runId}\`: ${step}.\n\n<sub>${escape(p.message)}</sub>`;
}

export function retryHint(command: string): string {
  return `To try again: \`${command} retry\`, or \`${command} <instructions>\` with a hint.`;
}

export function greenMessage(
  result: RunResult,
  pr: { number: number; htmlUrl: string } | null,
  pushed: string | null,
  draft = false,
): string {
  const where = pr
    ? `opened ${draft ? 'draft ' : ''}#${pr.number}`
    : pushed
      ? `pushed a new commit to \`${pushed}\``
      : 'published';
  // At level `review` the tests pass but a person decides (docs/design.md §3.3): the comment asks for that, not a merge.
  if (needsReview(result))
    return `🔍 **fixloop** run \`${result.runId}\`: ${where}; the tests pass, review it before merging.\n\n${result.headline}`;
  return `✅ **fixloop** run \`${result.runId}\`: ${where}.\n\n${result.headline}`;
}

export function escalationMessage(result: RunResult, command: string, bestDiff: string): string {
  const failing = finalFailing(result);
  const lines = [`⚠️ **fixloop** run \`${result.runId}\` needs a human.`, '', result.headline, ''];
  if (failing.length > 0) {
    lines.push('**Still failing:**');
    for (const t of failing.slice(0, 15)) lines.push(`- \`${t.id}\`${t.message ? `: ${escape(firstLine(t.message))}` : ''}`);
    if (failing.length > 15) lines.push(`- … ${failing.length - 15} more`);
    lines.push('');
  }
  if (bestDiff.trim()) {
    const fence = '`'.repeat(Math.max(3, ...[...bestDiff.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    lines.push(
      '<details><summary>Best attempt (not verified)</summary>',
      '',
      `${fence}diff`,
      bestDiff.slice(0, 20_000).trimEnd(),
      fence,
      '',
      '</details>',
      '',
    );
  }
  lines.push(retryHint(command));
  return lines.join('\n');
}

export function nothingToFixMessage(result: RunResult, kind: 'issue' | 'check'): string {
  if (kind === 'check') {
    const runs = result.flakiness?.suiteRuns;
    const each = runs && runs.failed === 0 ? ` in each of ${runs.runs} runs` : '';
    return `🤷 **fixloop** could not reproduce the failure: \`${result.testCommand}\` passes at \`${result.repository.sha.slice(0, 12)}\`${each}. The failure is likely flaky or specific to the CI environment, so fixloop stops here.`;
  }
  return `➖ **fixloop**: nothing to fix. \`${result.testCommand}\` already passes at \`${result.repository.sha.slice(0, 12)}\`${result.baseline.parsed ? ` (${result.baseline.passed} tests)` : ''}. fixloop acts on a failing test: push one that shows the bug (or say which in \`/fix <instructions>\`), then ask again.`;
}

/** The only failures were flaky tests (docs/design.md §3.2.8): each named with its counts, and no patch. */
export function flakyMessage(result: RunResult, kind: 'issue' | 'check'): string {
  const tests = result.flakiness?.tests ?? [];
  const what = kind === 'check' ? 'the check failed only on flaky tests' : 'the only failing tests are flaky';
  const lines = [
    `🎲 **fixloop**: ${what} at \`${result.repository.sha.slice(0, 12)}\`: each failed and then passed on the same code, so there is nothing to repair and no patch.`,
    '',
    ...tests.slice(0, 15).map((t) => `- \`${t.id}\`: ${flakyCountWords(t)}`),
    ...(tests.length > 15 ? [`- … ${tests.length - 15} more`] : []),
    '',
    'fixloop measures flakiness and never repairs it: make these tests deterministic, then ask again.',
  ];
  return lines.join('\n');
}

export function errorMessage(runId: string, message: string, command: string): string {
  return `💥 **fixloop** run \`${runId}\` stopped with an error:\n\n\`\`\`text\n${message.slice(0, 4000)}\n\`\`\`\n\n${retryHint(command)}`;
}

export function restartingMessage(runId: string): string {
  return `⏸️ **fixloop** run \`${runId}\` was interrupted because fixloop is restarting; it will start again by itself.`;
}

export function abandonedMessage(runId: string, outcome: string, command: string): string {
  return `💥 **fixloop** run \`${runId}\` could not finish: ${outcome}. Nothing was published. ${retryHint(command)}`;
}

export function cancelledMessage(runId: string, by: string | null): string {
  return `🛑 **fixloop** run \`${runId}\` was cancelled${by ? ` by @${by}` : ''}.`;
}

export function statusAnswer(info: JobInfo | null, now = Date.now()): string {
  if (!info) return 'No **fixloop** run is active here.';
  const since = info.startedAt ?? info.enqueuedAt;
  return `**fixloop** run \`${info.runId}\` is ${info.state} (${info.progress}), ${formatDuration(now - since)} so far${info.actor ? `, asked by @${info.actor}` : ''}.`;
}

export function activeRunAnswer(info: JobInfo, command: string): string {
  return `A **fixloop** run is already active here: \`${info.runId}\` (${info.state}, ${info.progress}). \`${command} status\` tells how it goes, \`${command} cancel\` stops it.`;
}

export function permissionRefusal(actor: string, minimum: string): string {
  return `@${actor} fixloop only runs for people with **${minimum}** permission on this repository or higher.`;
}

export function configErrorMessage(message: string): string {
  // The first line says what is wrong; the rest (each problem, or YAML's frame with its caret) keeps its layout in a block.
  const [first = '', ...rest] = message.split('\n');
  const details = rest.length > 0 ? `\n\n\`\`\`text\n${rest.join('\n').replaceAll('```', "'''")}\n\`\`\`` : '';
  return `⚙️ **fixloop** cannot run: \`.github/fixloop.yml\` on the default branch is invalid.\n\n> ${escape(first)}${details}\n\nFix the file and ask again; the reference is in fixloop's docs/configuration.md.`;
}

export function forkNote(base: string): string {
  return `This pull request comes from a fork, which fixloop cannot push to: the fix is opened against \`${base}\` in this repository instead.`;
}

function finalFailing(result: RunResult) {
  const last = [...result.attempts].reverse().find((a) => a.gate !== null);
  return last?.failingTests ?? result.baselineTests.filter((t) => t.status === 'failed');
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line.trim();
}

function escape(text: string): string {
  return text.replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'));
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
