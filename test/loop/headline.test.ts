import { describe, expect, it } from 'vitest';
import { headlineFor } from '../../src/loop/headline.ts';
import { greenResult } from '../support/sample-run-result.ts';

describe('the headline of a replay (no engine ran)', () => {
  it('says the stored patch held again', () => {
    const result = { ...greenResult(), attempts: [], replay: true as const };
    expect(headlineFor(result)).toMatch(new RegExp(`^Verified again: run ${result.runId}'s stored patch passes on a pristine checkout`));
    expect(headlineFor(result)).not.toMatch(/attempt/);
  });

  it('names why the stored patch did not hold: the first finding, else the tests it broke', () => {
    const base = { ...greenResult(), attempts: [], replay: true as const, status: 'failed_to_green' as const, stopReason: 'verification_failed' as const };
    const verification = { ...base.verification!, passed: false, passToFail: ['t > a', 't > b'], findings: [] };
    expect(headlineFor({ ...base, verification })).toBe(`Not verified again: run ${base.runId}'s stored patch did not hold on a pristine checkout: 2 tests that passed before now failing.`);
    const finding = { kind: 'runner_changed' as const, path: 'package.json', message: '`package.json`: its scripts changed' };
    expect(headlineFor({ ...base, verification: { ...verification, findings: [finding] } })).toMatch(/did not hold on a pristine checkout: `package\.json`: its scripts changed\.$/);
  });

  it('leaves a fix run\'s headline as it was', () => {
    expect(headlineFor(greenResult())).toMatch(/^Verified fix after \d+ attempts?/);
  });
});
