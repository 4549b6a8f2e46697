// What the flakiness check costs a run that has no flaky test (docs/design.md §3.2.8): one test that
// fails every time (`add` subtracts) beside two that pass, fixed by the default cascade with the
// default configuration, `fixloop run` timed with `loop.flakyReruns` at its default (3: the failing
// test runs three more times at the baseline) and at 0 (no check), in turn, `--runs` times each
// (default 3). Prints the median run time of each, the difference, and the reruns' own time.
// `--no-assessment` measures runs without the assessment (`assessment.enabled: false`), shorter.
//   node bench/flaky-cost.ts [--runs 3] [--sandbox auto|bwrap|process] [--no-assessment]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { args, flag } from './lib/args.ts';
import { fixloopRun, repositoryOf } from './lib/cli-run.ts';
import { median } from './lib/stats.ts';

const runs = Number(flag('--runs') ?? 3);
const sandbox = flag('--sandbox') ?? 'auto';
const assessment = !args.includes('--no-assessment');

function repository(reruns: number | null): Record<string, string> {
  return {
    'package.json': '{ "name": "calc", "type": "module", "private": true, "scripts": { "test": "node --test" } }\n',
    'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n',
    'test/math.test.js': [
      "import assert from 'node:assert/strict';",
      "import { test } from 'node:test';",
      "import { add, mul } from '../src/math.js';",
      '',
      "test('adds', () => assert.equal(add(2, 3), 5));",
      "test('multiplies', () => assert.equal(mul(2, 3), 6));",
      "test('multiplies by zero', () => assert.equal(mul(2, 0), 0));",
      '',
    ].join('\n'),
    'fixloop.yml': [
      ...(reruns !== null ? [`loop:\n  flakyReruns: ${reruns}\n`] : []),
      ...(assessment ? [] : ['assessment:\n  enabled: false\n']),
    ].join(''),
  };
}

interface Timing {
  runMs: number[];
  rerunMs: number[];
}

const out = mkdtempSync(join(tmpdir(), 'fixloop-flaky-cost-out-'));
const timings: Record<'check' | 'off', Timing> = { check: { runMs: [], rerunMs: [] }, off: { runMs: [], rerunMs: [] } };
try {
  for (let n = 1; n <= runs; n++) {
    for (const [way, reruns] of [
      ['check', null],
      ['off', 0],
    ] as const) {
      const repo = await repositoryOf(repository(reruns), 'fixloop-flaky-cost-');
      try {
        const run = await fixloopRun(repo, ['--test', 'npm test', '--sandbox', sandbox], join(out, `${way}-${n}`));
        const result = run.result;
        if (result?.status !== 'tests_green')
          throw new Error(`${way} run ${n} ended ${result?.status ?? `with no result: ${run.said}`}`);
        timings[way].runMs.push(result.durationMs);
        timings[way].rerunMs.push(result.flakiness?.durationMs ?? 0);
        console.log(
          `${way} ${n}: ${(result.durationMs / 1000).toFixed(1)} s${result.flakiness ? `, reruns ${(result.flakiness.durationMs / 1000).toFixed(1)} s (${result.flakiness.command})` : ''}`,
        );
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
const seconds = (ms: number | null) => `${((ms ?? 0) / 1000).toFixed(1)} s`;
const withCheck = median(timings.check.runMs) ?? 0;
const without = median(timings.off.runMs) ?? 0;
const reruns = median(timings.check.rerunMs) ?? 0;
console.log(`\n| Run (median of ${runs}${assessment ? '' : ', no assessment'}) | Time |\n| --- | ---: |`);
console.log(`| \`loop.flakyReruns: 0\` (no check) | ${seconds(without)} |`);
console.log(`| default (\`loop.flakyReruns: 3\`) | ${seconds(withCheck)} |`);
console.log(`| difference | ${seconds(withCheck - without)} (${(((withCheck - without) / without) * 100).toFixed(1)} %) |`);
console.log(`| the reruns themselves | ${seconds(reruns)} (${((reruns / withCheck) * 100).toFixed(1)} % of the run) |`);
