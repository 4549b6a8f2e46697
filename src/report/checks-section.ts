// A check run's checks in the report (Markdown, and the terminal through markdown-text.ts): each
// check at the baseline and on the pristine replay, and the diagnostics it reported at the baseline.
import { diagnosticText, type CheckSummary } from '../core/check-result.ts';
import type { RunResult } from '../core/run-result.ts';
import { oneLine } from './report-words.ts';

const SHOWN = 10;

function outcome(check: CheckSummary | undefined): string {
  if (!check) return '—';
  if (check.passed) return 'passes';
  const read = check.parsed
    ? `${check.diagnostics} diagnostic${check.diagnostics === 1 ? '' : 's'}`
    : 'output not read per diagnostic';
  return `fails (${check.exitCode !== undefined ? `exit ${check.exitCode}` : 'killed'}; ${read})`;
}

export function checksSection(result: RunResult): string[] {
  const checks = result.checks;
  if (!checks) return [];
  const replayed = result.verification?.checks;
  const rows = checks.commands.map((command) => {
    const before = checks.baseline.find((c) => c.command === command);
    const after = replayed?.find((c) => c.command === command);
    return `| \`${oneLine(command, 80)}\` | ${outcome(before)} | ${outcome(after)} |`;
  });
  const diagnostics = checks.baseline.flatMap((c) => c.shown);
  const total = checks.baseline.reduce((sum, c) => sum + c.diagnostics, 0);
  return [
    '### Checks',
    'The gate: each check must pass; the tests guard against regressions.',
    '',
    '| Check | Baseline | Replayed |',
    '| --- | --- | --- |',
    ...rows,
    ...(diagnostics.length > 0
      ? [
          '',
          `Diagnostics at the baseline${total > SHOWN ? ` (the first ${SHOWN} of ${total})` : ''}:`,
          ...diagnostics.slice(0, SHOWN).map((d) => `- ${oneLine(diagnosticText(d), 200)} (${d.tool})`),
        ]
      : []),
  ];
}
