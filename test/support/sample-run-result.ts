// A verified run's result, as the loop returns it: the base that report and publication tests vary.
import type { RunResult } from '../../src/core/run-result.ts';

export function greenResult(): RunResult {
  const counts = { passed: 4, failed: 1, skipped: 0, total: 5, parsed: true, format: 'node-test' as const };
  return {
    runId: 'mabc123-0a1b2c',
    status: 'tests_green',
    headline:
      'Verified fix after 1 attempt: 1 failing test now passes; replayed on a pristine checkout, 5/5 passing, no test weakened.',
    repository: { source: '/home/me/project', ref: null, sha: '0123456789abcdef0123456789abcdef01234567' },
    testCommand: 'node --test',
    engines: ['repair'],
    engine: 'repair',
    sandbox: 'process',
    attempts: [
      {
        attempt: 1,
        phase: 'fix',
        engine: 'repair',
        summary: '`>` → `>=` at src/discounts.js:11 (candidate 3 of 40, 5 test runs)',
        startedFrom: 'baseline',
        changes: [{ path: 'src/discounts.js', kind: 'modified', added: 1, removed: 1, binary: false }],
        findings: [],
        gate: { passed: true, counts: { ...counts, passed: 5, failed: 0 }, durationMs: 800 },
        fingerprint: null,
        failingTests: [],
        cost: { usd: 0, tokens: 0 },
        engineStats: { candidates: 40 },
        notes: [],
        durationMs: 4200,
        diffPath: '/out/attempt-1.diff',
        logPath: '/out/attempt-1.log',
      },
    ],
    patch:
      'diff --git a/src/discounts.js b/src/discounts.js\n--- a/src/discounts.js\n+++ b/src/discounts.js\n@@ -11 +11 @@\n-    if (quantity > tier.minQuantity) {\n+    if (quantity >= tier.minQuantity) {\n',
    filesChanged: [{ path: 'src/discounts.js', kind: 'modified', added: 1, removed: 1, binary: false }],
    baseline: counts,
    baselineTests: [{ id: 'discountRate > gives 5%', status: 'failed', message: 'expected 0.05' }],
    final: { ...counts, passed: 5, failed: 0 },
    verification: {
      replayed: true,
      passed: true,
      gate: { passed: true, counts: { ...counts, passed: 5, failed: 0 }, durationMs: 900 },
      failToPass: ['discountRate > gives 5%'],
      passToFail: [],
      stillFailing: [],
      newlySkipped: [],
      findings: [],
    },
    cost: { usd: 0, tokens: 0 },
    startedAt: '2026-11-22T10:00:00.000Z',
    durationMs: 6100,
    artifactsDir: '/out',
    events: [],
  };
}
