import { describe, expect, it } from 'vitest';
import { renderMarkdownReport } from '../../src/report/render-markdown.ts';
import type { RunResult } from '../../src/core/run-result.ts';

function greenResult(): RunResult {
  const counts = { passed: 4, failed: 1, skipped: 0, total: 5, parsed: true, format: 'node-test' as const };
  return {
    runId: 'mabc123-0a1b2c',
    status: 'tests_green',
    headline: 'Verified fix after 1 attempt: 1 failing test now passes; replayed on a pristine checkout, 5/5 passing, no test weakened.',
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
    patch: 'diff --git a/src/discounts.js b/src/discounts.js\n--- a/src/discounts.js\n+++ b/src/discounts.js\n@@ -11 +11 @@\n-    if (quantity > tier.minQuantity) {\n+    if (quantity >= tier.minQuantity) {\n',
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

describe('renderMarkdownReport', () => {
  it('renders a verified fix', () => {
    expect(renderMarkdownReport(greenResult())).toMatchSnapshot();
  });

  it('renders an escalation with the failing tests and the rejected attempt', () => {
    const result = greenResult();
    result.status = 'escalated';
    result.stopReason = 'no_progress';
    result.headline = 'Escalated to a human after 2 attempts: no progress (the same failure twice); 1 test still failing.';
    result.patch = '';
    result.filesChanged = [];
    result.verification = null;
    result.final = result.baseline;
    result.attempts[0] = {
      ...result.attempts[0]!,
      gate: null,
      findings: [{ kind: 'path_protected', path: 'test/a.test.js', message: '`test/a.test.js` is protected' }],
      summary: 'script exited 0',
    };
    result.attempts.push({ ...result.attempts[0]!, attempt: 2, gate: { passed: false, reason: 'NON_ZERO_EXIT', exitCode: 1, counts: result.baseline, durationMs: 700 }, findings: [], failingTests: [{ id: 'discountRate > gives 5%', status: 'failed', message: 'expected 0.05\n  got 0' }] });
    const text = renderMarkdownReport(result);
    expect(text).toMatchSnapshot();
    expect(text).toContain('### Still failing');
    expect(text).toContain('`discountRate > gives 5%`: expected 0.05');
    expect(text).toContain('**path_protected**');
  });

  it('warns about the process sandbox and redacts anything that looks like a token', () => {
    const result = greenResult();
    result.testCommand = 'TOKEN=ghs_abcdefghijklmnopqrstuvwxyz0123456789 npm test';
    const text = renderMarkdownReport(result);
    expect(text).toContain('no isolation beyond');
    expect(text).not.toContain('ghs_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(text).toContain('[redacted]');
  });

  it('names the toolchains and package settings the commands were given, never their values', () => {
    const result = { ...greenResult(), environment: { toolchains: [{ name: 'python3', kind: 'pyenv', prefix: '/root/.pyenv/versions/3.11.7', bound: true }], packageSettings: ['npm registry', 'NODE_EXTRA_CA_CERTS'] } };
    const md = renderMarkdownReport(result);
    expect(md).toContain('- Toolchains: `python3` (pyenv, `/root/.pyenv/versions/3.11.7`, shown read-only)');
    expect(md).toContain('- Package settings passed: `npm registry`, `NODE_EXTRA_CA_CERTS`');
  });

  it('fences a patch that itself contains backticks', () => {
    const result = greenResult();
    result.patch = '--- a/x.md\n+++ b/x.md\n@@ -1 +1 @@\n-```js\n+````js\n';
    const text = renderMarkdownReport(result);
    expect(text).toContain('`````diff');
  });
});
