// The evidence line's words for the fixed tests run from copies of their files (src/verify/copied-tests.ts)
// and with their expected values changed (src/verify/changed-expectations.ts): how they were run, or
// why that was not checked; nothing where the look did not happen.
import { describe, expect, it } from 'vitest';
import { evidenceWords } from '../../src/report/evidence-words.ts';
import type { SecondObservation } from '../../src/core/run-result.ts';
import { greenResult } from '../support/sample-run-result.ts';

function withAlone(alone: SecondObservation) {
  const result = greenResult();
  if (result.verification) result.verification.alone = alone;
  return evidenceWords(result);
}

describe('the evidence words of the look from copied test files', () => {
  it('says the fixed tests passed from copies, with the command', () => {
    const words = withAlone({
      ran: 1,
      command: 'jest -t a',
      copied: { ran: 1, command: 'jest test/fixloop_copy_1.test.js -t a' },
    });
    expect(words).toMatch(
      /each fixed test also passed run on its own \(1, e\.g\. `jest -t a`\); and from copies of their test files under other names, their lines moved \(`jest test\/fixloop_copy_1\.test\.js -t a`\)$/,
    );
  });

  it('says "not checked", and why, where the copies were not run', () => {
    const words = withAlone({ ran: 1, command: 'mocha --grep a', copied: { ran: 0, command: null, notChecked: 'the reason' } });
    expect(words).toMatch(/; from copies of their test files: not checked \(the reason\)$/);
  });

  it('says nothing of copies in a run stored before them', () => {
    expect(withAlone({ ran: 1, command: 'jest -t a' })).not.toContain('cop');
  });
});

describe('the evidence words of the look with expected values changed', () => {
  const copied = { ran: 1, command: 'pytest t_copy.py::a' };
  it('says the changed tests failed, with one change and the command', () => {
    const words = withAlone({
      ran: 2,
      command: 'pytest t.py::a t.py::b',
      copied,
      expectations: { ran: 2, command: 'pytest t.py::a t.py::b', example: 't.py:5 `3` → `4`' },
    });
    expect(words).toMatch(
      /; and, with the expected values they state changed \(t\.py:5 `3` → `4`\), all 2 failed, as a test that can fail must \(`pytest t\.py::a t\.py::b`\)$/,
    );
  });

  it('says "not checked", and why, where no expectation was changed', () => {
    const words = withAlone({
      ran: 1,
      command: 'pytest t.py::a',
      copied,
      expectations: { ran: 0, command: null, notChecked: 'the reason' },
    });
    expect(words).toMatch(/; with their expected values changed: not checked \(the reason\)$/);
  });

  it('says nothing of it in a run stored before it', () => {
    expect(withAlone({ ran: 1, command: 'pytest t.py::a', copied })).not.toContain('expected');
  });
});
