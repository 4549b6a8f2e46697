// Prints one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own summary,
// so any reader of the log (people, CI) sees the totals without parsing vitest's formatting; and,
// above it, the slowest files with their time, so a CI log shows where the suite's time goes.
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files are listed. */
const SLOWEST = 15;

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load has no tests but is a failure all the same.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    const timed = testModules
      .map((m) => ({ file: m.relativeModuleId, seconds: m.diagnostic().duration / 1000 }))
      .sort((a, b) => b.seconds - a.seconds);
    if (timed.length > 1) {
      const lines = timed.slice(0, SLOWEST).map((t) => `${t.seconds.toFixed(1).padStart(8)} s  ${t.file}`);
      process.stdout.write(`\nslowest files (time in tests and hooks):\n${lines.join('\n')}\n`);
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
