// The loop's budgets in RepoConfig (`loop`, docs/design.md §1.6): attempts, failures in a row, time,
// and how many more times a failing test runs to tell a flaky test from a real failure (§3.2.8).
import { z } from 'zod';

const seconds = z.number().int().positive().max(86_400);

export const loopConfigSchema = z
  .object({
    maxAttempts: z.number().int().positive().max(100).default(5).describe('Most attempts in one run.'),
    maxConsecutiveFailures: z
      .number()
      .int()
      .positive()
      .max(100)
      .default(3)
      .describe('Failed gates in a row without fewer failing tests before the run escalates to a human.'),
    timeBudget: seconds.default(3600).describe('Seconds the whole run may take; when spent the run stops and reports it.'),
    flakyReruns: z
      .number()
      .int()
      .min(0)
      .max(20)
      .default(3)
      .describe(
        'How many more times each failing test of the baseline runs on its own (the failing tests together, through the runner\'s own selection), and each test that passed at the baseline and fails in an attempt or the replay: one that passes in any run is flaky; a passing baseline, in a run with nothing else to do, runs again whole as many times, and a test that fails in any of those runs is flaky too, no engine\'s target and no regression, and the report names it with its counts ("failed 2 of 4 runs"). A run whose only failures are flaky ends `flaky`, with no patch. 0 turns the check off.',
      ),
  })
  .strict()
  .default({ maxAttempts: 5, maxConsecutiveFailures: 3, timeBudget: 3600, flakyReruns: 3 });
