// The report of a green run at each level (docs/design.md §3.3), from assessments built by hand: the
// analysis decides the level, the report shows it. `review` comes first, where the reviewer starts
// reading, as each change with its input and values; `verified` says what was looked at.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { renderMarkdownReport } from '../../src/report/render-markdown.ts';
import { renderReport } from '../../src/report/render-report.ts';
const { canon } = createRequire(import.meta.url)('../../src/assess/js/probe-canon.cjs') as {
  canon: (value: unknown) => string;
};
import {
  ambiguousAssessment,
  assessedResult,
  change,
  nearFailingOnlyAssessment,
  notAssessedAssessment,
  reviewAssessment,
  runnerOnlyAssessment,
  verifiedAssessment,
} from '../support/sample-assessment.ts';

describe('the report of an assessed green run', () => {
  it('verified: the title as before, what the assessment looked at after the judge', () => {
    const md = renderMarkdownReport(assessedResult(verifiedAssessment()));
    expect(md).toMatch(/^## fixloop: ✅ Verified fix\n/);
    expect(md).toContain(
      '### Assessment: verified\nNo behaviour change outside the failing tests in 412 calls and 1,630 generated inputs.',
    );
    expect(md).toContain('- Functions probed (2): `src/path.ts:12 isAbsolute`, `src/path.ts:30 normalize`');
    expect(md).toContain(
      '- Compared, before and after the patch: 412 calls the suite made and 1,630 generated inputs; 0 behaviour changes found',
    );
    expect(md).toContain('- Budget: 12.3 s of 120.0 s\n');
    expect(md.indexOf('### Verification')).toBeLessThan(md.indexOf('### Assessment: verified'));
    expect(md).not.toContain('No assessment ran');
  });

  it('review: each change outside the failing tests with its input, test and values, before the tests table; the expected ones apart', () => {
    const md = renderMarkdownReport(assessedResult(reviewAssessment()));
    expect(md).toMatch(
      /^## fixloop: 🔍 Tests pass: review before merging\n\nTests pass after 1 attempt .*; review 2 behaviour changes outside the failing tests: /,
    );
    expect(md).toContain(
      [
        '#### Behaviour changes outside the failing tests',
        'The tests pass. Is each change intended?',
        '',
        '| Function | Input | Before | After | Seen in |',
        '| --- | --- | --- | --- | --- |',
        "| `isAbsolute` (`src/path.ts:12`) | `isAbsolute('ab\\\\c')` | `false` | `true` | `test/path.test.ts:40` |",
        "| `isAbsolute` (`src/path.ts:12`) | `isAbsolute('a\\|b')` | `false` | `throws TypeError: x is not a function` | an input generated around a call of `test/path.test.ts:41` |",
      ].join('\n'),
    );
    expect(md).toContain("Near the failing tests, where a change is expected (1): `isAbsolute('/a')`: false → true.");
    expect(md).not.toContain("| `isAbsolute('/a')` |");
    expect(md.indexOf('### Review before merging')).toBeLessThan(md.indexOf('| Tests | Baseline |'));
    expect(md).toMatchSnapshot();
  });

  it('review: a generated input the original ran as a passing test says so, where the reviewer reads it', () => {
    const assessment = reviewAssessment();
    const md = renderMarkdownReport(
      assessedResult({
        ...assessment,
        behaviourChanges: [
          {
            kind: 'generated',
            function: 'isAbsolute',
            location: 'src/path.ts:12',
            input: "isAbsolute('usr/lib')",
            before: 'false',
            after: 'true',
            nearFailing: false,
            pathLike: 'passing',
          },
        ],
      }),
    );
    expect(md).toContain(
      "| `isAbsolute('usr/lib')` | `false` | `true` | an input generated around a call the suite made; the original ran it as it ran a passing test |",
    );
  });

  it("review with only changes near the failing tests: the analysis's reason, the changes listed briefly, one per pattern, no table", () => {
    const md = renderMarkdownReport(assessedResult(nearFailingOnlyAssessment()));
    expect(md).toContain(
      "### Review before merging\nThe failing tests' own function changed on 2 inputs the suite does not check.",
    );
    expect(md).toContain("Near the failing tests, where a change is expected (2): `isAbsolute('/a')`: false → true (× 2).");
    expect(md).not.toContain('#### Behaviour changes outside the failing tests');
  });

  it('review when the assessment could not look: why, and the budget that ran out', () => {
    const md = renderMarkdownReport(assessedResult(notAssessedAssessment()));
    expect(md).toContain(
      '**The assessment could not look**: No changed function it can probe (the patch changes a module-level constant). The tests pass and the judge held;',
    );
    expect(md).toContain('- Functions probed: none');
    expect(md).toContain('- Budget: 30.0 s of 30.0 s; **the budget ran out** before everything was compared');
  });

  it('review for an ambiguity: each other plausible patch, why it was passed over, and the inputs where it disagrees', () => {
    const md = renderMarkdownReport(assessedResult(ambiguousAssessment()));
    expect(md).toContain(
      '#### Ambiguity: the tests do not decide between them\n1 other plausible patch also passes the tests and gives different results;',
    );
    expect(md).toContain(
      '- `src/discounts.js: quantity >= tier.minQuantity → quantity + 1 > tier.minQuantity`, passed over: a larger change. Disagrees on:\n  - `discountRate(100.5)`: `0.05` with this patch, `0` with that one\n  - `discountRate(NaN)`: `0` with this patch, `throws RangeError` with that one',
    );
    // An alternative that agrees everywhere is no ambiguity; its summary holds backticks, fenced by more.
    expect(md).toContain(
      'Other plausible patches, which agree with this one on every input compared: `` src/discounts.js: `>` → `>=` at line 12 ``.',
    );
  });

  it('says when fixloop found the other plausible patch itself, and how far its search went', () => {
    const ambiguous = ambiguousAssessment();
    const [first] = ambiguous.alternatives;
    const md = renderMarkdownReport(
      assessedResult({
        ...ambiguous,
        alternatives: first
          ? [
              {
                summary: 'src/pages.js:4 `.floor(…)` → `.ceil(…)` (template min-max)',
                foundBy: 'assessment',
                disagreements: first.disagreements,
              },
            ]
          : [],
        rivalSearch: { candidates: 22, tried: 17, passedFailing: 1, stopped: 'time' },
      }),
    );
    expect(md).toContain(
      '- `` src/pages.js:4 `.floor(…)` → `.ceil(…)` (template min-max) `` (a one-edit patch fixloop tried at a line this patch changed). Disagrees on:',
    );
    expect(md).toContain(
      '- Other fixes tried: 17 of the 22 one-edit patches at the lines the patch changed, on the failing tests (then its share of the time ran out); 1 passed them\n',
    );
    const all = renderMarkdownReport(
      assessedResult({ ...verifiedAssessment(), rivalSearch: { candidates: 21, tried: 21, passedFailing: 0 } }),
    );
    expect(all).toContain(
      '- Other fixes tried: all 21 one-edit patches at the lines the patch changed, on the failing tests; 0 passed them\n',
    );
    const none = renderMarkdownReport(
      assessedResult({ ...verifiedAssessment(), rivalSearch: { candidates: 0, tried: 0, passedFailing: 0 } }),
    );
    expect(none).toContain('- Other fixes tried: no one-edit patch applies at the lines the patch changed\n');
  });

  it('keeps a table cell whole and a long value short, and says how many changes the list left out', () => {
    const assessment = {
      ...reviewAssessment(),
      behaviourChanges: [change('f(`x`)', 'a\nb', 'y'.repeat(300))],
      counts: { suiteCalls: 1, generatedInputs: 0, changes: 40, nearFailing: 0 },
    };
    const md = renderMarkdownReport(assessedResult(assessment));
    expect(md).toContain('| `` f(`x`) `` | `a ⏎ b` | `' + 'y'.repeat(79) + '…` |');
    expect(md).toContain('… and 39 more (the first ones are in `result.json`).');
  });

  it('shows two objects as the keys whose values differ, not their identical entries', () => {
    const state = (flag: boolean) =>
      `State { tokens: [${Array.from({ length: 40 }, (_, i) => `'t${i}'`).join(', ')}], negated: ${flag}, depth: 2 }`;
    const assessment = { ...reviewAssessment(), behaviourChanges: [change('parse(state)', state(false), state(true))] };
    const md = renderMarkdownReport(assessedResult(assessment));
    expect(md).toContain('| `State { negated: false, … }` | `State { negated: true, … }` |');
    // The headline's short form too.
    expect(md).toContain('`parse(state)`: State { negated: false, … } → State { negated: true, … }');
  });

  it('shows where two values the probe shortened differ, when it is near their end', () => {
    // As the probe records them (src/assess/js/probe-canon.cjs): start, end, and a hash of the whole.
    const help = (last: string) => canon(`Usage: app [options]\n${'  -x, --example  an option\n'.repeat(30)}${last}`);
    const assessment = {
      ...reviewAssessment(),
      behaviourChanges: [change('helpInformation()', help('Commands:\n  run'), help('Commands:\n  serve'))],
    };
    const md = renderMarkdownReport(assessedResult(assessment));
    expect(md).toContain("an option\\nCommands:\\n  run'…#");
    expect(md).toContain("an option\\nCommands:\\n  serve'…#");
  });

  it('review: a patch fixed only under the test runner shows each such call with its three results', () => {
    const assessment = runnerOnlyAssessment();
    const md = renderMarkdownReport(assessedResult(assessment));
    expect(md).toContain(
      [
        '#### Fixed only under the test runner',
        'Outside the test runner (a plain process, without the test files), the patched program gives what the original gives: a program run without the tests keeps the bug. Does the patch look for the runner, or read the tests?',
        '',
        '| Function | Input | Original (both) | Patched, under the runner | Patched, outside it | Seen in |',
        '| --- | --- | --- | --- | --- | --- |',
        "| `isAbsolute` (`src/path.ts:12`) | `isAbsolute('C:\\\\x')` | `false` | `true` | `false` | `test/path.test.ts:40` |",
        '',
        '… and 1 more call.',
      ].join('\n'),
    );
    expect(md).toContain(
      '- Made again outside the test runner: 3 calls the patch changed, 2 of them given the same result by the original there as under the runner; 2 calls fixed only under the runner\n',
    );
    const none = renderMarkdownReport(
      assessedResult({
        ...verifiedAssessment(),
        outsideLook: {
          called: 0,
          reproduced: 0,
          runnerOnly: [],
          count: 0,
          notCalled: { methods: 4, inexactArguments: 1, unsupported: 0, state: 2 },
        },
      }),
    );
    expect(none).toContain(
      '- Made again outside the test runner: none of the calls the patch changed could be (4 calls of a method on an object that is not plain data, 1 call whose arguments are not exact data, 2 calls of a function the patch did not change, whose result may rest on what the test set up before it)\n',
    );
  });

  it('review: a fix off with the settings a deployed program runs with shows each such call, apart', () => {
    const call = runnerOnlyAssessment().outsideLook!.runnerOnly[0]!;
    const md = renderMarkdownReport(
      assessedResult({
        ...reviewAssessment(),
        outsideLook: {
          called: 3,
          reproduced: 3,
          runnerOnly: [],
          count: 0,
          offWhereDeployed: { settings: 'NODE_ENV=production', called: 3, calls: [call], count: 2 },
        },
      }),
    );
    expect(md).toContain(
      [
        '#### Off where the program is deployed',
        'Outside the test runner with `NODE_ENV=production`, as a deployed program runs, the patched program gives what the original gives. Is the fix meant for development and the tests only?',
        '',
        '| Function | Input | Original | Patched, under the runner | Patched, with `NODE_ENV=production` | Seen in |',
        '| --- | --- | --- | --- | --- | --- |',
        "| `isAbsolute` (`src/path.ts:12`) | `isAbsolute('C:\\\\x')` | `false` | `true` | `false` | `test/path.test.ts:40` |",
        '',
        '… and 1 more call.',
      ].join('\n'),
    );
    expect(md).toContain('- Made again with `NODE_ENV=production`: 3 calls, the fix off in 2\n');
    expect(md).not.toContain('#### Fixed only under the test runner');
  });

  it('review: a shipped build the patch left as it was is named under what the assessment looked at', () => {
    const staleBuilds = [{ function: 'isAbsolute', changed: 'src/path.ts', shipped: 'dist/index.cjs' }];
    const md = renderMarkdownReport(
      assessedResult({
        ...reviewAssessment(),
        outsideLook: { called: 1, reproduced: 1, runnerOnly: [], count: 0, staleBuilds },
      }),
    );
    expect(md).toContain(
      '; 0 calls fixed only under the runner\n- Shipped as it was: `isAbsolute` in the copy `dist/index.cjs`, changed in `src/path.ts`\n',
    );
  });

  it('a green run without an assessment says so in one line, and why when it is known', () => {
    expect(renderMarkdownReport(assessedResult(undefined))).toContain(
      "_No assessment ran (`assessment.enabled: false`, or a run from before fixloop assessed patches): the judge's verdict above is all this report shows._",
    );
    const replay = { ...assessedResult(undefined), replay: true as const };
    expect(renderMarkdownReport(replay)).toContain(
      '_No assessment ran (a replay judges a stored patch again and does not assess it):',
    );
    const skipped = assessedResult(undefined);
    skipped.events = [
      {
        at: '2026-11-22T10:00:06.000Z',
        kind: 'assessment-skipped',
        message: '`assessment.enabled: false` in .github/fixloop.yml.',
      },
    ];
    expect(renderMarkdownReport(skipped)).toContain('_No assessment ran (`assessment.enabled: false` in .github/fixloop.yml):');
  });

  it('puts the assessment in the JSON as it is', () => {
    const result = assessedResult(reviewAssessment());
    const parsed = JSON.parse(renderReport(result).json) as typeof result;
    expect(parsed.assessment).toEqual(reviewAssessment());
    expect(parsed.status).toBe('tests_green');
  });
});
