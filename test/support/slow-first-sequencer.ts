// Starts the suite's longest files first. With two workers the run lasts at least as long as its
// longest file, plus whatever that file was queued behind: vitest's own order (the results cache, else
// the larger file first) has no cache on a fresh CI machine and puts the long files late. These start
// at once, in this order; every other file keeps vitest's order after them.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files measured slowest on a 2-core machine in CI's tier, slowest first (paths from the
 * repository root; per-file times of a full local run of 2026-11-30, stop 60, less the cases only
 * `npm run test:full` runs). The cheat suites judge most cases against one baseline per project
 * (judge-bench.ts).
 */
export const SLOW_FIRST = [
  'test/integration/judge-cheats-pytest.test.ts',
  'test/integration/assessment.test.ts',
  'test/integration/judge-cheats.test.ts',
  'test/integration/cli-run.test.ts',
  'test/integration/assessment-outside-runner.test.ts',
  'test/integration/action.test.ts',
  'test/sandbox/hostile-repos.test.ts',
  'test/integration/app-e2e.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
      return i === -1 ? SLOW_FIRST.length : i;
    };
    // A stable sort: the files not listed keep vitest's order.
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
