import { describe, expect, it } from 'vitest';
import { renderMarkdownReport } from '../../src/report/render-markdown.ts';
import { greenResult } from '../support/sample-run-result.ts';
import type { TestView } from '../../src/core/test-report.ts';

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
    result.attempts.push({
      ...result.attempts[0]!,
      attempt: 2,
      gate: { passed: false, reason: 'NON_ZERO_EXIT', exitCode: 1, counts: result.baseline, durationMs: 700 },
      findings: [],
      failingTests: [{ id: 'discountRate > gives 5%', status: 'failed', message: 'expected 0.05\n  got 0' }],
    });
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
    const result = {
      ...greenResult(),
      environment: {
        toolchains: [{ name: 'python3', kind: 'pyenv', prefix: '/root/.pyenv/versions/3.11.7', bound: true }],
        packageSettings: ['npm registry', 'NODE_EXTRA_CA_CERTS'],
      },
    };
    const md = renderMarkdownReport(result);
    expect(md).toContain('- Toolchains: `python3` (pyenv, `/root/.pyenv/versions/3.11.7`, shown read-only)');
    expect(md).toContain('- Package settings passed: `npm registry`, `NODE_EXTRA_CA_CERTS`');
  });

  it('says what evidence made a run green: the runner’s own report, or the exit code alone by the operator’s choice', () => {
    const witnessed = greenResult();
    witnessed.verification!.gate!.counts.witness = { runner: 'node', passed: 5, failed: 0, skipped: 0, total: 5 };
    expect(renderMarkdownReport(witnessed)).toMatch(
      /Evidence: per-test, from the runner's output: the replay's 5 tests agree with its exit code, and the runner's own report \(node's JUnit XML: 5 tests, 0 failed\)/,
    );

    const exitCodeOnly = greenResult();
    const unread = { passed: 0, failed: 0, skipped: 0, total: 0, parsed: false, format: 'unknown' as const };
    exitCodeOnly.verification!.evidence = 'exit-code';
    exitCodeOnly.verification!.gate!.counts = unread;
    exitCodeOnly.final = unread;
    expect(renderMarkdownReport(exitCodeOnly)).toMatch(
      /Evidence: the exit code alone \(the output could not be read per test; `test.evidence: exit-code`\)/,
    );
  });

  it('says where the per-test view came from, and "counts only", never "per-test", when no test was named', () => {
    const viewed = (view: TestView) => {
      const result = greenResult();
      result.verification!.gate!.counts.view = view;
      return renderMarkdownReport(result);
    };
    expect(viewed('inside')).toContain(
      "- Evidence: per-test, from inside the test processes: the replay's 5 tests agree with its exit code",
    );
    expect(viewed('output')).toContain("- Evidence: per-test, from the runner's output: the replay's 5 tests agree");
    const counted = viewed('counts');
    expect(counted).toContain(
      "- Evidence: counts only (no test named, neither by the runner's output nor from inside its test processes): the replay's 5 tests agree with its exit code",
    );
    expect(counted).not.toMatch(/Evidence: per-test/);

    const countedBaseline = greenResult();
    countedBaseline.baseline = { ...countedBaseline.baseline, view: 'counts' };
    expect(renderMarkdownReport(countedBaseline)).toContain(
      "_The baseline's tests were counted but not named, neither by the runner's output nor from inside its test processes: which tests failed is unknown._",
    );
  });

  it('shows an attempt the engine went on with in the next one as such, not as an attempt without a gate', () => {
    const result = greenResult();
    const fixed = result.attempts[0]!;
    result.attempts = [
      {
        ...fixed,
        attempt: 1,
        gate: null,
        findings: [],
        continues: true,
        summary: "the attempt's time budget ran out (120 of 300 candidates validated, 124 test runs, 300.1 s); 180 left",
      },
      { ...fixed, attempt: 2 },
    ];
    const text = renderMarkdownReport(result);
    expect(text).toMatch(/\| 1 \| [^|]+ \| [^|]+ \| continued in the next attempt \| – \| the attempt's time budget ran out/);
    expect(text).not.toContain('no gate');
  });

  it('fences a patch that itself contains backticks', () => {
    const result = greenResult();
    result.patch = '--- a/x.md\n+++ b/x.md\n@@ -1 +1 @@\n-```js\n+````js\n';
    const text = renderMarkdownReport(result);
    expect(text).toContain('`````diff');
  });
});
