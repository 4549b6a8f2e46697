// A run whose only failures are flaky, and a green run that found a flaky test (docs/design.md
// §3.2.8), as every reader sees them: the headline, the report (Markdown and terminal), the exit
// code, the library's outcome, and the App's reply and check (neutral, no pull request).
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeFor } from '../../src/cli/exit-codes.ts';
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import type { RunResult } from '../../src/core/run-result.ts';
import type { Forge } from '../../src/forge/forge.ts';
import { publishResult } from '../../src/forge/publish-result.ts';
import type { RunPlan } from '../../src/forge/run-plan.ts';
import { outcomeOf } from '../../src/library/run-outcome.ts';
import { headlineFor } from '../../src/loop/headline.ts';
import { renderMarkdownReport } from '../../src/report/render-markdown.ts';
import { renderTerminalReport } from '../../src/report/render-terminal.ts';
import { greenResult } from '../support/sample-run-result.ts';

const FLAKY = { id: 'math > flaky', runs: 4, failed: 2, seen: 'baseline' as const };

function flakyResult(): RunResult {
  const green = greenResult();
  const counts = { passed: 4, failed: 1, skipped: 0, total: 5, parsed: true, format: 'node-test' };
  const result: RunResult = {
    ...green,
    status: 'flaky',
    engine: null,
    attempts: [],
    patch: '',
    filesChanged: [],
    baseline: counts,
    baselineTests: [{ id: FLAKY.id, status: 'failed', message: 'jittered' }],
    final: counts,
    verification: null,
    flakiness: { reruns: 3, command: "node --test --test-name-pattern='flaky'", checked: 1, tests: [FLAKY], durationMs: 2100 },
  };
  return { ...result, headline: headlineFor(result) };
}

function plan(kind: RunPlan['kind']): RunPlan {
  return {
    kind,
    owner: 'octo',
    repo: 'shop',
    number: 3,
    isPullRequest: kind === 'check',
    title: 'CI failed',
    actor: 'writer',
    deliveryId: null,
    goal: '',
    instructions: '',
    cloneUrl: '/nowhere',
    pushUrl: '/nowhere',
    ref: 'main',
    sha: '0123456789abcdef0123456789abcdef01234567',
    baseRef: null,
    target: { kind: 'pull-request', base: 'main' },
    commentId: null,
  };
}

/** A forge that refuses everything: a flaky run publishes nothing but its reply and check. */
function refusingForge(): Forge {
  const refuse = () => Promise.reject(new Error('a flaky run publishes nothing'));
  return {
    owner: 'octo',
    repo: 'shop',
    cloneAuth: refuse,
    permission: refuse,
    react: refuse,
    comment: refuse,
    updateComment: refuse,
    findComment: refuse,
    addLabels: refuse,
    pullRequest: refuse,
    openPullRequest: refuse,
    updatePullRequestBody: refuse,
    startStatus: refuse,
    completeStatus: refuse,
  };
}

describe('a run whose only failures are flaky', () => {
  it('says so in its headline and report, naming each flaky test with its counts', () => {
    const result = flakyResult();
    expect(result.headline).toBe(
      'Flaky, nothing to repair: the only failing test is flaky: `math > flaky` (failed 2 of 4 runs), on the same code. fixloop measures flakiness and does not repair it: no patch.',
    );
    const markdown = renderMarkdownReport(result);
    expect(markdown).toContain('## fixloop: 🎲 Flaky tests: nothing to repair');
    expect(markdown).toContain('- `math > flaky`: failed 2 of 4 runs, failing at the baseline, on the pristine code');
    expect(markdown).toContain("ran 3 more times (`node --test --test-name-pattern='flaky'`, 2.1 s; `loop.flakyReruns`)");
    expect(markdown).not.toContain('### Patch');
    const terminal = renderTerminalReport(result);
    expect(terminal).toContain('fixloop: 🎲 Flaky tests: nothing to repair');
    expect(terminal).toContain('math > flaky: failed 2 of 4 runs');
  });

  it('exits 5, and the library returns it as its own outcome', () => {
    const result = flakyResult();
    expect(exitCodeFor(result)).toBe(EXIT.flaky);
    expect(EXIT.flaky).toBe(5);
    expect(new Set(Object.values(EXIT)).size).toBe(Object.keys(EXIT).length);
    expect(outcomeOf(result, { diffs: [], artifactsDir: '/out', warnings: [], lastOutput: '' }).status).toBe('flaky');
  });

  it('replies on the forge that the check failed only on flaky tests, with a neutral check and no pull request', async () => {
    for (const kind of ['check', 'label'] as const) {
      const publication = await publishResult({
        forge: refusingForge(),
        plan: plan(kind),
        config: repoConfigSchema.parse({}),
        result: flakyResult(),
        report: '## the report\n',
        tmpRoot: tmpdir(),
      });
      expect(publication.pullRequest).toBeNull();
      expect(publication.verdict).toMatchObject({ conclusion: 'neutral', title: 'Flaky tests: nothing to repair' });
      expect(publication.status).toContain(
        kind === 'check' ? 'the check failed only on flaky tests' : 'the only failing tests are flaky',
      );
      expect(publication.status).toContain('- `math > flaky`: failed 2 of 4 runs');
    }
  });
});

describe('a green run that found a flaky test', () => {
  it('names it, not counted, after its headline and in its report and pull request body', () => {
    const green = greenResult();
    const result: RunResult = {
      ...green,
      verification: { ...green.verification!, flaky: [FLAKY.id] },
      flakiness: {
        reruns: 3,
        command: 'node --test',
        checked: 2,
        tests: [{ ...FLAKY, failed: 1, seen: 'replay' }],
        durationMs: 900,
      },
    };
    result.headline = headlineFor(result);
    expect(result.headline).toMatch(/no test weakened\. Flaky, not counted: `math > flaky` \(failed 1 of 4 runs\)\.$/);
    const markdown = renderMarkdownReport(result);
    expect(markdown).toContain('- Flaky, not counted (1): `math > flaky`');
    expect(markdown).toContain('- `math > flaky`: failed 1 of 4 runs, failing in the replay after passing at the baseline');
  });
});
