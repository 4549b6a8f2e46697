// Starts the suite's longest files first. With two workers the run lasts at least as long as its
// longest file, plus whatever that file was queued behind: vitest's own order (the results cache, else
// the larger file first) has no cache on a fresh CI machine and puts the long files late. These start
// at once, in this order; every other file keeps vitest's order after them.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files measured slowest on a 2-core machine, slowest first (paths from the repository root; a
 * full local run of 2026-11-27, stop 36, in docs/benchmarks.md). The cheat suites judge most cases
 * against one baseline per project (judge-bench.ts).
 */
export const SLOW_FIRST = [
  'test/integration/judge-cheats-pytest.test.ts',
  'test/integration/cli-repair.test.ts',
  'test/integration/cli-run.test.ts',
  'test/integration/judge-cheats-vitest.test.ts',
  'test/integration/action-pull-requests.test.ts',
  'test/jobs/crash-recovery.test.ts',
  'test/integration/judge-cheats.test.ts',
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
