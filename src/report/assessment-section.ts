// The report's assessment section (docs/design.md §3.3). At level `review` the reviewer's question is "is
// this change intended?": each change outside the failing tests with its input, where it was seen, and
// the values before and after; the changes near the failing tests (expected) apart and brief; every
// other plausible patch with the inputs where it disagrees. At `verified`, what was looked at. A green
// run without an assessment says so in one line, and why when that is known.
import type { AlternativePatch, Assessment, BehaviourChange } from '../core/assessment.ts';
import { seconds } from '../core/duration-words.ts';
import type { RunResult } from '../core/run-result.ts';
import { changeRows, disagreementRows, disputedInputs } from './change-rows.ts';
import { offWhereDeployedSection, outsideLooked, runnerOnlySection } from './runner-only-rows.ts';
import { ambiguities, cellCode, changeText, clip, code, outsideChanges, plural, whereTheyDiffer } from './assessment-words.ts';

/** Rows shown per table: the report is a pull request's body, read in a minute; the rest is in result.json. */
const MAX_ROWS = 8;
/** The event a run notes when it skipped the assessment, with the why as its message. */
export const ASSESSMENT_SKIPPED_EVENT = 'assessment-skipped';

export function assessmentSection(result: RunResult): string[] {
  // A run the look outside the runner refused (src/loop/outside-verdict.ts) shows the calls it rests on.
  if (result.status !== 'tests_green') return result.assessment ? runnerOnlySection(result.assessment) : [];
  const assessment = result.assessment;
  if (!assessment) return [`_No assessment ran${whyNone(result)}: the judge's verdict above is all this report shows._`];
  if (assessment.level === 'verified') return verifiedSection(assessment);
  return reviewSection(assessment);
}

function whyNone(result: RunResult): string {
  if (result.replay) return ' (a replay judges a stored patch again and does not assess it)';
  const skipped = [...result.events].reverse().find((e) => e.kind === ASSESSMENT_SKIPPED_EVENT);
  if (skipped) return ` (${clip(skipped.message, 200).replace(/\.$/, '')})`;
  return ' (`assessment.enabled: false`, or a run from before fixloop assessed patches)';
}

function verifiedSection(assessment: Assessment): string[] {
  const agreeing = assessment.alternatives.filter((a) => a.disagreements.length === 0);
  return [
    '### Assessment: verified',
    `${sentence(assessment.reason)} Nothing else the patch changed was found for a reviewer to decide on.`,
    ...(agreeing.length
      ? [
          '',
          `Other plausible patches, which agree with this one on every input compared: ${agreeing.map((a) => code(a.summary, 100)).join(', ')}.`,
        ]
      : []),
    '',
    ...lookedAt(assessment),
  ];
}

function reviewSection(assessment: Assessment): string[] {
  const outside = outsideChanges(assessment);
  const lines = ['### Review before merging', sentence(assessment.reason)];
  if (assessment.notAssessed)
    lines.push(
      '',
      `**The assessment could not look**: ${sentence(assessment.notAssessed)} The tests pass and the judge held; whether the patch changed anything else is not known, so review it as any change.`,
    );
  if (outside.count > 0)
    lines.push(
      '',
      '#### Behaviour changes outside the failing tests',
      'The tests pass. Is each change intended?',
      '',
      ...changesTable(outside.listed, outside.count, disputedInputs(assessment.alternatives)),
    );
  lines.push(...runnerOnlySection(assessment), ...offWhereDeployedSection(assessment));
  lines.push(...nearFailing(assessment));
  const open = ambiguities(assessment);
  if (open.length > 0) {
    const they = open.length === 1 ? 'passes the tests and gives' : 'pass the tests and give';
    lines.push(
      '',
      '#### Ambiguity: the tests do not decide between them',
      `${plural(open.length, 'other plausible patch', 'other plausible patches')} also ${they} different results; which behaviour is right is for a person to say.`,
      '',
      ...open.flatMap((alt) => alternative(alt, Math.max(1, Math.floor(MAX_ROWS / open.length)))),
    );
  }
  const agreeing = assessment.alternatives.filter((a) => a.disagreements.length === 0);
  if (agreeing.length > 0)
    lines.push(
      '',
      `Other plausible patches, which agree with this one on every input compared: ${agreeing.map((a) => code(a.summary, 100)).join(', ')}.`,
    );
  return [...lines, '', ...lookedAt(assessment)];
}

/**
 * One row per pattern of change (a count when it stands for several), the rows another plausible
 * patch disputes first, at most MAX_ROWS; how many changes the rows left out is said.
 */
function changesTable(changes: BehaviourChange[], count: number, disputed: ReadonlySet<string>): string[] {
  const rows = changeRows(changes, disputed).slice(0, MAX_ROWS);
  const left = count - rows.reduce((n, r) => n + r.count, 0);
  return [
    '| Function | Input | Before | After | Seen in |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      ({ shown: c, count: n, disputed: other }) =>
        `| ${cellCode(c.function, 60)} (${cellCode(c.location, 60)}) | ${cellCode(c.input)}${n > 1 ? ` (× ${n}: the same change on ${plural(n - 1, 'other input')})` : ''} | ${valueCells(c)} | ${seenIn(c)}${other ? '; **another plausible patch gives another result here**' : ''} |`,
    ),
    ...(left > 0 ? ['', `… and ${left.toLocaleString('en-US')} more (the first ones are in \`result.json\`).`] : []),
  ];
}

/** Before and after, from where they differ when both are long. */
function valueCells(change: BehaviourChange): string {
  const [before, after] = whereTheyDiffer(change.before, change.after, 80);
  return `${cellCode(before, 80)} | ${cellCode(after, 80)}`;
}

function seenIn(change: BehaviourChange): string {
  if (change.kind === 'suite') return change.test ? cellCode(change.test, 80) : 'a call the suite made';
  const generated = `an input generated around a call${change.test ? ` of ${cellCode(change.test, 80)}` : ' the suite made'}`;
  // Why a reviewer should care: the old program ran this input the way it ran a passing test.
  return change.pathLike === 'passing' ? `${generated}; the original ran it as it ran a passing test` : generated;
}

/** Where the failing tests expect a change: listed apart and briefly, they do not ask for review. */
function nearFailing(assessment: Assessment): string[] {
  const near = assessment.behaviourChanges.filter((c) => c.nearFailing);
  const count = Math.max(near.length, assessment.counts.nearFailing);
  if (count === 0) return [];
  // One per pattern, with its count: the failing tests' neighbours often change all the same way.
  const rows = changeRows(near, new Set()).slice(0, 5);
  const shown = rows.map(({ shown: c, count: n }) => `${changeText(c)}${n > 1 ? ` (× ${n})` : ''}`);
  const listed = rows.reduce((n, r) => n + r.count, 0);
  const more = count > listed ? `, and ${count - listed} more` : '';
  return ['', `Near the failing tests, where a change is expected (${count}): ${shown.join('; ')}${more}.`];
}

/** An alternative and the inputs where it disagrees, one line per pattern, at most `max` lines. */
function alternative(alt: AlternativePatch, max: number): string[] {
  const merged = disagreementRows(alt.disagreements).slice(0, max);
  const rows = merged.map(({ shown: d, count: n }) => {
    const [chosen, other] = whereTheyDiffer(d.chosen, d.alternative, 80);
    const own = d.atFailingTests ? ' (a failing test’s own call: its test accepts both)' : '';
    const alike = n > 1 ? ` (× ${n}: the same on ${plural(n - 1, 'other input')})` : '';
    return `  - ${code(d.input)}${alike}: ${code(chosen)} with this patch, ${code(other)} with that one${own}`;
  });
  const left = alt.disagreements.length - merged.reduce((n, r) => n + r.count, 0);
  const more = left > 0 ? [`  - … and ${plural(left, 'more input')} (in \`result.json\`)`] : [];
  // Said apart: the engine did not consider it, fixloop tried it at the patch's own place.
  const origin = alt.foundBy === 'assessment' ? ' (a one-edit patch fixloop tried at a line this patch changed)' : '';
  return [
    `- ${code(alt.summary, 120)}${origin}${alt.passedOver ? `, passed over: ${clip(alt.passedOver, 160)}` : ''}. Disagrees on:`,
    ...rows,
    ...more,
  ];
}

function lookedAt(assessment: Assessment): string[] {
  const { counts, budget } = assessment;
  const probed = assessment.probed.length
    ? `- Functions probed (${assessment.probed.length}): ${assessment.probed
        .slice(0, 15)
        .map((p) => code(p, 80))
        .join(', ')}${assessment.probed.length > 15 ? `, … ${assessment.probed.length - 15} more` : ''}`
    : '- Functions probed: none';
  const near = counts.nearFailing > 0 ? `, ${counts.nearFailing} of them near the failing tests` : '';
  return [
    '<details><summary>What the assessment looked at</summary>',
    '',
    probed,
    `- Compared, before and after the patch: ${plural(counts.suiteCalls, 'call')} the suite made and ${plural(counts.generatedInputs, 'generated input')}; ${plural(counts.changes, 'behaviour change')} found${near}`,
    ...rivalSearched(assessment),
    ...outsideLooked(assessment),
    `- Budget: ${seconds(budget.usedMs)} of ${seconds(budget.limitMs)}${budget.exhausted ? '; **the budget ran out** before everything was compared' : ''}`,
    '',
    '</details>',
  ];
}

/** The engine offered no other plausible patch: how far the assessment's own search for one went. */
function rivalSearched(assessment: Assessment): string[] {
  const search = assessment.rivalSearch;
  if (!search) return [];
  if (search.candidates === 0) return ['- Other fixes tried: no one-edit patch applies at the lines the patch changed'];
  const why = {
    time: 'its share of the time ran out',
    enough: 'one it found gives other results than the patch',
    error: 'a run failed',
  };
  const screened = search.screened ?? 0;
  const passed = search.tried + screened;
  const tried = search.stopped ? `${passed} of the ${search.candidates}` : `all ${search.candidates}`;
  const stopped = search.stopped ? ` (then ${why[search.stopped]})` : '';
  // Set aside: a plain process showed them giving the original's result on every call the patch changed.
  const aside =
    screened > 0
      ? ` (${screened} set aside unrun: outside the runner they give the original's result on every call the patch changed)`
      : '';
  return [
    `- Other fixes tried: ${tried} one-edit patches at the lines the patch changed, on the failing tests${aside}${stopped}; ${search.passedFailing} passed them`,
  ];
}

function sentence(text: string): string {
  const clipped = clip(text, 300);
  const line = `${clipped.charAt(0).toUpperCase()}${clipped.slice(1)}`;
  return /[.!?…]$/.test(line) ? line : `${line}.`;
}
