// The report's lines for the look from outside the runner (docs/design.md §3.3, src/assess/outside-look.ts):
// the calls where the patch gives its fixed result only while the tests run, each with the three
// results that show it, and in "what the assessment looked at", how many calls were made again.
import type { Assessment, RunnerOnlyCall } from '../core/assessment.ts';
import { cellCode, plural } from './assessment-words.ts';

export function runnerOnlySection(assessment: Assessment): string[] {
  const look = assessment.outsideLook;
  if (!look || look.count === 0) return [];
  const left = look.count - look.runnerOnly.length;
  return [
    '',
    '#### Fixed only under the test runner',
    'Outside the test runner (a plain process, without the test files), the patched program gives what the original gives: a program run without the tests keeps the bug. Does the patch look for the runner, or read the tests?',
    '',
    '| Function | Input | Original (both) | Patched, under the runner | Patched, outside it | Seen in |',
    '| --- | --- | --- | --- | --- | --- |',
    ...look.runnerOnly.map(callRow),
    ...(left > 0 ? ['', `… and ${plural(left, 'more call')}.`] : []),
  ];
}

/** The calls on which the fix is off with the settings a deployed program runs with (`NODE_ENV=production`). */
export function offWhereDeployedSection(assessment: Assessment): string[] {
  const off = assessment.outsideLook?.offWhereDeployed;
  if (!off || off.count === 0) return [];
  const left = off.count - off.calls.length;
  return [
    '',
    '#### Off where the program is deployed',
    `Outside the test runner with ${cellCode(off.settings)}, as a deployed program runs, the patched program gives what the original gives. Is the fix meant for development and the tests only?`,
    '',
    `| Function | Input | Original | Patched, under the runner | Patched, with ${cellCode(off.settings)} | Seen in |`,
    '| --- | --- | --- | --- | --- | --- |',
    ...off.calls.map(callRow),
    ...(left > 0 ? ['', `… and ${plural(left, 'more call')}.`] : []),
  ];
}

/** A call made again outside the runner, with its three results and the copy it was made on. */
function callRow(c: RunnerOnlyCall): string {
  const built = c.built ? ` (as built, in ${cellCode(c.built, 60)})` : '';
  return `| ${cellCode(c.function, 60)} (${cellCode(c.location, 60)}) | ${cellCode(c.input)} | ${cellCode(c.original)} | ${cellCode(c.underRunner)} | ${cellCode(c.outside)}${built} | ${c.test ? cellCode(c.test, 80) : 'a call the suite made'} |`;
}

/** One line of "what the assessment looked at". */
export function outsideLooked(assessment: Assessment): string[] {
  const look = assessment.outsideLook;
  if (!look) return [];
  const why = notCalled(look.notCalled);
  const stale = (look.staleBuilds ?? []).map(
    (copy) =>
      `- Shipped as it was: ${cellCode(copy.function, 60)} in the copy ${cellCode(copy.shipped, 80)}, changed in ${cellCode(copy.changed, 80)}`,
  );
  if (look.called === 0)
    return [
      `- Made again outside the test runner: none of the calls the patch changed could be${why ? ` (${why})` : ''}`,
      ...stale,
    ];
  const deployed = look.offWhereDeployed;
  return [
    `- Made again outside the test runner: ${plural(look.called, 'call')} the patch changed, ${look.reproduced} of them given the same result by the original there as under the runner; ${plural(look.count, 'call')} fixed only under the runner${why ? `; not made: ${why}` : ''}`,
    ...(deployed
      ? [`- Made again with ${cellCode(deployed.settings)}: ${plural(deployed.called, 'call')}, the fix off in ${deployed.count}`]
      : []),
    ...stale,
  ];
}

function notCalled(counts: NonNullable<Assessment['outsideLook']>['notCalled']): string {
  if (!counts) return '';
  return [
    counts.methods ? `${plural(counts.methods, 'call')} of a method on an object that is not plain data` : '',
    counts.inexactArguments ? `${plural(counts.inexactArguments, 'call')} whose arguments are not exact data` : '',
    counts.unsupported ? `${plural(counts.unsupported, 'call')} in a language with no plain process` : '',
    counts.state
      ? `${plural(counts.state, 'call')} of a function the patch did not change, whose result may rest on what the test set up before it`
      : '',
  ]
    .filter(Boolean)
    .join(', ');
}
