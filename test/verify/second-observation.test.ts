// The second observation: a fixed test run on its own must pass there too. Runners that list only
// failures (`pytest -q`) say so by their counts; an unknown runner means no second observation.
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { TestReport } from '../../src/core/test-report.ts';
import { observeAlone } from '../../src/verify/second-observation.ts';
import type { SuiteRunner } from '../../src/verify/suite-runner.ts';

const counts = (passed: number, failed: number, tests: TestReport['tests'] = []): TestReport => ({ format: 'pytest', parsed: true, passed, failed, skipped: 0, total: passed + failed, tests });
const final = counts(3, 0, [{ id: 'tests/test_stats.py::test_average', name: 'test_average', status: 'passed' }]);

function suite(testCommand: string, answer: GateResult): SuiteRunner & { commands: string[] } {
  const commands: string[] = [];
  return { testCommand, setupCommand: null, commands, setup: async () => null, gate: async () => answer, gateWith: async (_cwd, command) => (commands.push(command), answer) };
}

describe('the second observation', () => {
  it('accepts pytest -q passing the one test it was asked for, which it does not list', async () => {
    const s = suite('python3 -m pytest -q', { passed: true, report: counts(1, 0), output: '1 passed', durationMs: 1 });
    const { observation, findings } = await observeAlone(s, '/nowhere', final, ['tests/test_stats.py::test_average'], () => undefined);
    expect(findings).toEqual([]);
    expect(observation).toEqual({ ran: 1, command: 'python3 -m pytest -q tests/test_stats.py::test_average' });
  });

  it('refuses a fixed test that fails, or runs nothing, on its own', async () => {
    const failing = suite('python3 -m pytest -q', { passed: false, reason: 'NON_ZERO_EXIT', exitCode: 1, report: counts(0, 1), output: '1 failed', durationMs: 1 });
    expect((await observeAlone(failing, '/nowhere', final, ['tests/test_stats.py::test_average'], () => undefined)).findings[0]?.kind).toBe('second_observation_failed');
    const empty = suite('python3 -m pytest -q', { passed: true, report: counts(0, 0), output: '', durationMs: 1 });
    expect((await observeAlone(empty, '/nowhere', final, ['tests/test_stats.py::test_average'], () => undefined)).findings).toHaveLength(1);
  });

  it('says no second observation was possible for a command that cannot select one test', async () => {
    const s = suite('make test', { passed: true, report: counts(1, 0), output: '', durationMs: 1 });
    expect(await observeAlone(s, '/nowhere', final, ['tests/test_stats.py::test_average'], () => undefined)).toEqual({ observation: { ran: 0, command: null }, findings: [] });
    expect(s.commands).toEqual([]);
  });
});
