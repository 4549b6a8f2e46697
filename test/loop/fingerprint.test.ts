import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import { failureFingerprint, normalizeFailureText } from '../../src/loop/fingerprint.ts';

function failedGate(tests: TestCaseResult[], output = ''): GateResult {
  const failed = tests.filter((t) => t.status === 'failed').length;
  return {
    passed: false,
    reason: 'NON_ZERO_EXIT',
    exitCode: 1,
    output,
    durationMs: 10,
    report: {
      format: 'node-test',
      parsed: tests.length > 0,
      passed: tests.length - failed,
      failed,
      skipped: 0,
      total: tests.length,
      tests,
    },
  };
}

describe('normalizeFailureText', () => {
  it('strips what varies between two runs of the same failure', () => {
    const a =
      '\u001b[31m✖ adds (12.5ms)\u001b[39m at 2026-11-22T10:00:01.123Z in /tmp/fixloop-ab12/work/src/a.js:3 0x7ffdeadbeef pid 4242 took 3.2s';
    const b = '✖ adds (7ms) at 2026-11-23T11:22:33Z in /tmp/fixloop-zz99/work/src/a.js:3 0x7ff00000001 pid 17 took 0.4s';
    expect(normalizeFailureText(a)).toBe(normalizeFailureText(b));
    expect(normalizeFailureText(a)).not.toContain('\u001b');
    expect(normalizeFailureText(a)).not.toMatch(/12\.5|2026|fixloop-ab12|0x7ff|4242/);
  });

  it('keeps what matters: the assertion and the location', () => {
    expect(normalizeFailureText('expected 3 to equal 4 at src/a.js:3')).toBe('expected 3 to equal 4 at src/a.js:3');
  });

  it('blanks the given roots', () => {
    expect(normalizeFailureText('at /home/u/work/src/a.js:1', ['/home/u/work'])).toBe('at <root>/src/a.js:1');
  });
});

describe('failureFingerprint', () => {
  const t = (id: string, message: string): TestCaseResult => ({ id, name: id, status: 'failed', message });

  it('is null for a passed gate', () => {
    expect(failureFingerprint({ passed: true, output: '', durationMs: 1, report: failedGate([]).report })).toBeNull();
  });

  it('is the same for the same failing tests in another order and with other timings', () => {
    const one = failedGate([t('a', 'expected 1 (3ms)'), t('b', 'boom at /tmp/x1/y.js')]);
    const two = failedGate([t('b', 'boom at /tmp/x2/y.js'), t('a', 'expected 1 (9ms)')]);
    expect(failureFingerprint(one)).toBe(failureFingerprint(two));
  });

  it('differs when another test fails or the message changes', () => {
    const base = failureFingerprint(failedGate([t('a', 'expected 1 got 2')]));
    expect(failureFingerprint(failedGate([t('b', 'expected 1 got 2')]))).not.toBe(base);
    expect(failureFingerprint(failedGate([t('a', 'expected 1 got 3')]))).not.toBe(base);
  });

  it('falls back to the normalized output tail when nothing was parsed', () => {
    const one = failedGate([], 'Error: cannot connect\n  at 12:00:01 (/tmp/run-a/x.js)\n');
    const two = failedGate([], 'Error: cannot connect\n  at 13:14:15 (/tmp/run-b/x.js)\n');
    expect(failureFingerprint(one)).toBe(failureFingerprint(two));
    expect(failureFingerprint(failedGate([], 'Error: other'))).not.toBe(failureFingerprint(one));
  });
});
