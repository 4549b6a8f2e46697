// The report as a terminal shows it (src/report/render-terminal.ts): the Markdown report's sections
// and words without its markup, the error once, a failing test's expected and actual values, colour
// only in the colour style, and the same redaction.
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { renderMarkdownReport } from '../../src/report/render-markdown.ts';
import { renderTerminalReport } from '../../src/report/render-terminal.ts';
import { COLOUR_STYLE } from '../../src/report/terminal-style.ts';
import { assessedResult, reviewAssessment } from '../support/sample-assessment.ts';
import { greenResult } from '../support/sample-run-result.ts';

const ESC = '\x1b[';

function escalated(): RunResult {
  const result = greenResult();
  result.status = 'escalated';
  result.headline = 'Escalated to a human after 1 attempt: no progress; 1 test still failing.';
  result.patch = '';
  result.filesChanged = [];
  result.verification = null;
  result.final = result.baseline;
  result.attempts[0] = {
    ...result.attempts[0]!,
    gate: { passed: false, reason: 'NON_ZERO_EXIT', exitCode: 1, counts: result.baseline, durationMs: 700 },
    failingTests: [
      {
        id: 'discountRate > gives 5%',
        status: 'failed',
        message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n0 !== 0.05',
        expected: '0.05',
        actual: '0',
      },
      { id: 'discountRate > throws', status: 'failed', message: 'Error: boom' },
    ],
  };
  return result;
}

describe('renderTerminalReport', () => {
  it('has no Markdown markup: no <details>, no table rules, no backticks, no headings', () => {
    for (const result of [greenResult(), escalated(), assessedResult(reviewAssessment())]) {
      const text = renderTerminalReport(result);
      expect(text).not.toMatch(/<\/?details>|<summary>|\| --- |`|^#{2,4} |\*\*/m);
      expect(text).not.toContain(ESC);
    }
  });

  it('says what the Markdown report says: its title, headline, counts, verification and run details', () => {
    const text = renderTerminalReport(greenResult());
    expect(text).toMatch(/^fixloop: ✅ Verified fix\nVerified fix after 1 attempt/);
    expect(text).toMatch(/^ {2}Tests +Baseline +Final \(replayed\)$/m);
    expect(text).toMatch(/^ {2}Failed +1 +0$/m);
    expect(text).toContain('- Replayed on a pristine checkout: yes, full suite green');
    expect(text).toContain('- Fail → pass (1): discountRate > gives 5%');
    expect(text).toContain('1 file(s) changed, +1 −1, by engine repair.');
    expect(text).toContain('+    if (quantity >= tier.minQuantity) {');
    expect(text).toContain('- Sandbox: process ⚠️ no isolation beyond a scrubbed environment');
    expect(renderMarkdownReport(greenResult())).toContain('<details><summary>Diff</summary>');
  });

  it('shows what a still failing test expected and got, under its message', () => {
    const text = renderTerminalReport(escalated());
    expect(text).toContain(
      'Still failing\n- discountRate > gives 5%: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n    expected 0.05, got 0\n- discountRate > throws: Error: boom\n',
    );
    // The Markdown report has the same values, on the test's line.
    expect(renderMarkdownReport(escalated())).toContain(
      '`discountRate > gives 5%`: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: (expected 0.05, got 0)',
    );
  });

  it('says an error once: its whole message, not the headline that repeats the first line', () => {
    const result = escalated();
    result.status = 'error';
    result.baseline = { ...result.baseline, total: 0, parsed: false };
    result.attempts = [];
    const message = 'the test command `no-such-cmd` failed: `no-such-cmd` was not found. Make the runner visible to the sandbox';
    result.error = { code: 'COMMAND_NOT_FOUND', message };
    result.headline = `Error: ${message}`;
    const text = renderTerminalReport(result);
    expect(text.match(/was not found/g)).toHaveLength(1);
    expect(text).toMatch(/^fixloop: 💥 Error\nthe test command no-such-cmd failed: no-such-cmd was not found\. Make the runner/);
  });

  it('puts the review first for a green run that asks for one, its tables as columns', () => {
    const text = renderTerminalReport(assessedResult(reviewAssessment()));
    expect(text).toMatch(/^fixloop: 🔍 Tests pass: review before merging\n/);
    expect(text.indexOf('Review before merging')).toBeLessThan(text.indexOf('Tests  '));
    expect(text).toMatch(/^ {2}Function +Input +Before +After +Seen in$/m);
    expect(text).toContain('What the assessment looked at');
  });

  it('colours with the colour style only, and the words stay the same', () => {
    const plain = renderTerminalReport(escalated());
    const coloured = renderTerminalReport(escalated(), { style: COLOUR_STYLE });
    expect(coloured).toContain(ESC);
    expect(coloured).toContain(`${ESC}1m${ESC}33m⚠️ Escalated to a human`);
    expect(stripVTControlCharacters(coloured)).toBe(plain);
  });

  it('redacts anything that looks like a token', () => {
    const result = greenResult();
    result.testCommand = 'TOKEN=ghs_abcdefghijklmnopqrstuvwxyz0123456789 npm test';
    const text = renderTerminalReport(result);
    expect(text).not.toContain('ghs_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(text).toContain('[redacted]');
  });
});
