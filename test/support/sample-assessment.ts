// Assessments built by hand, for the tests of what shows them (headline, report, exit code,
// publication, the Action's outputs, the library): the analysis decides the level, these only render it.
import type { Assessment, BehaviourChange } from '../../src/core/assessment.ts';
import type { RunResult } from '../../src/core/run-result.ts';
import { headlineFor } from '../../src/loop/headline.ts';
import { greenResult } from './sample-run-result.ts';

const looked = {
  probed: ['src/path.ts:12 isAbsolute', 'src/path.ts:30 normalize'],
  budget: { usedMs: 12_300, limitMs: 120_000, exhausted: false },
};

export function change(input: string, before: string, after: string, extra: Partial<BehaviourChange> = {}): BehaviourChange {
  return {
    kind: 'suite',
    function: 'isAbsolute',
    location: 'src/path.ts:12',
    input,
    before,
    after,
    test: 'test/path.test.ts:40',
    nearFailing: false,
    ...extra,
  };
}

export function verifiedAssessment(): Assessment {
  return {
    level: 'verified',
    reason: 'no behaviour change outside the failing tests in 412 calls and 1,630 generated inputs',
    behaviourChanges: [],
    alternatives: [],
    counts: { suiteCalls: 412, generatedInputs: 1630, changes: 0, nearFailing: 0 },
    ...looked,
  };
}

export function reviewAssessment(): Assessment {
  return {
    level: 'review',
    reason: '2 behaviour changes outside the failing tests',
    behaviourChanges: [
      change("isAbsolute('ab\\\\c')", 'false', 'true'),
      change("isAbsolute('a|b')", 'false', 'throws TypeError: x is not a function', {
        kind: 'generated',
        test: 'test/path.test.ts:41',
      }),
      change("isAbsolute('/a')", 'false', 'true', { nearFailing: true, test: 'test/path.test.ts:12' }),
    ],
    alternatives: [],
    counts: { suiteCalls: 412, generatedInputs: 1630, changes: 3, nearFailing: 1 },
    ...looked,
  };
}

export function nearFailingOnlyAssessment(): Assessment {
  return {
    ...reviewAssessment(),
    reason: "the failing tests' own function changed on 2 inputs the suite does not check",
    behaviourChanges: [
      change("isAbsolute('/a')", 'false', 'true', { nearFailing: true }),
      change("isAbsolute('//a')", 'false', 'true', { nearFailing: true, kind: 'generated' }),
    ],
    counts: { suiteCalls: 412, generatedInputs: 1630, changes: 2, nearFailing: 2 },
  };
}

export function notAssessedAssessment(): Assessment {
  return {
    level: 'review',
    reason: 'the assessment could not look at the patch',
    behaviourChanges: [],
    alternatives: [],
    probed: [],
    counts: { suiteCalls: 0, generatedInputs: 0, changes: 0, nearFailing: 0 },
    notAssessed: 'no changed function it can probe (the patch changes a module-level constant)',
    budget: { usedMs: 30_000, limitMs: 30_000, exhausted: true },
  };
}

export function ambiguousAssessment(): Assessment {
  return {
    ...verifiedAssessment(),
    level: 'review',
    reason: 'another plausible patch passes the same tests and disagrees on 2 inputs',
    alternatives: [
      {
        summary: 'src/discounts.js: quantity >= tier.minQuantity → quantity + 1 > tier.minQuantity',
        passedOver: 'a larger change',
        disagreements: [
          { input: 'discountRate(100.5)', chosen: '0.05', alternative: '0' },
          { input: 'discountRate(NaN)', chosen: '0', alternative: 'throws RangeError' },
        ],
      },
      { summary: 'src/discounts.js: `>` → `>=` at line 12', disagreements: [] },
    ],
  };
}

/** A patch fixed only under the test runner: two calls, the first shown (src/assess/outside-look.ts). */
export function runnerOnlyAssessment(): Assessment {
  return {
    ...verifiedAssessment(),
    level: 'review',
    reason: 'the patch works only under the test runner',
    outsideLook: {
      called: 3,
      reproduced: 2,
      count: 2,
      runnerOnly: [
        {
          function: 'isAbsolute',
          location: 'src/path.ts:12',
          input: "isAbsolute('C:\\\\x')",
          test: 'test/path.test.ts:40',
          original: 'false',
          underRunner: 'true',
          outside: 'false',
        },
      ],
    },
  };
}

/** A green run with this assessment, its headline as the loop would write it. */
export function assessedResult(assessment: Assessment | undefined): RunResult {
  const result: RunResult = { ...greenResult(), ...(assessment ? { assessment } : {}) };
  return { ...result, headline: headlineFor(result) };
}
