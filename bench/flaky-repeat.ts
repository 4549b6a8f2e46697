// Flakiness is measured, never repaired (docs/design.md §3.2.8), on the repository of issue 48 as it
// was reported: a `node --test` suite where `adds` fails while `add` subtracts and `flaky` passes when
// `Math.random() < 0.6` (through `jitter()` in the source, which an engine could "fix"). Each way is
// run `--runs` times (default 10) with `fixloop run <repo> --test "npm test"` and the default
// configuration:
//   - `adds` fixed in the source: should end `flaky`, naming `flaky` with its counts, with no patch;
//   - `adds` broken: should end `tests_green` with `add` fixed, `jitter` untouched and `flaky` named,
//     not counted (a run in which `flaky` never failed cannot name it, and is counted as missed).
// Prints each run and how many ended as they should. The randomness is real: the integration test
// (test/integration/cli-flaky.test.ts) holds the same rules on a test flaky by construction.
//   node bench/flaky-repeat.ts [--runs 10] [--sandbox auto|bwrap|process] [--reruns 3]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flakyCountWords } from '../src/core/flaky-test.ts';
import type { RunResult } from '../src/core/run-result.ts';
import { flag } from './lib/args.ts';
import { fixloopRun, repositoryOf, type CliRun } from './lib/cli-run.ts';

const runs = Number(flag('--runs') ?? 10);
const sandbox = flag('--sandbox') ?? 'auto';
const reruns = flag('--reruns');

function issueRepository(addBroken: boolean): Record<string, string> {
  return {
    'package.json': '{ "name": "jitter", "type": "module", "private": true, "scripts": { "test": "node --test" } }\n',
    'src/math.js': [
      'export function add(a, b) {',
      `  return ${addBroken ? 'a - b' : 'a + b'};`,
      '}',
      '',
      'export function jitter() {',
      '  return Math.random() >= 0.6;',
      '}',
      '',
    ].join('\n'),
    'test/math.test.js': [
      "import assert from 'node:assert/strict';",
      "import { test } from 'node:test';",
      "import { add, jitter } from '../src/math.js';",
      '',
      "test('adds', () => {",
      '  assert.equal(add(2, 3), 5);',
      '});',
      '',
      '// Passes when Math.random() < 0.6.',
      "test('flaky', () => {",
      '  assert.equal(jitter(), false);',
      '});',
      '',
    ].join('\n'),
    ...(reruns !== undefined ? { 'fixloop.yml': `loop:\n  flakyReruns: ${Number(reruns)}\n` } : {}),
  };
}

interface Way {
  name: string;
  addBroken: boolean;
  /** Null when the run ended as it should; else what it did instead. */
  judge: (result: RunResult) => string | null;
}

const namesFlaky = (result: RunResult) => result.flakiness?.tests.some((t) => t.id === 'flaky') === true;

const WAYS: Way[] = [
  {
    name: '`adds` fixed, `flaky` flaky',
    addBroken: false,
    judge: (r) => (r.status === 'flaky' && r.patch === '' && namesFlaky(r) ? null : `ended ${r.status}`),
  },
  {
    name: '`adds` broken, `flaky` flaky',
    addBroken: true,
    judge: (r) => {
      if (r.status !== 'tests_green') return `ended ${r.status}`;
      if (!r.patch.includes('+  return a + b;')) return 'green without fixing `add`';
      if (/^[-+].*(jitter|Math\.random|0\.6)/m.test(r.patch)) return 'the patch changes `jitter`';
      // Issue 48 asks for `flaky` named too: a run in which it never failed cannot name it.
      return namesFlaky(r) ? null : 'green, `flaky` not named';
    },
  },
];

/** One run in a line: its status, its flaky tests with their counts, what it should have done instead. */
function line(n: number, run: CliRun, wrong: string | null): string {
  const r = run.result;
  if (!r) return `  ${n}. no result (exit ${run.exitCode}): ${run.said}`;
  const flaky = (r.flakiness?.tests ?? []).map((t) => `${t.id} ${flakyCountWords(t)} (${t.seen})`).join(', ');
  const ending = wrong ? `NOT AS IT SHOULD: ${wrong} (${r.headline})` : 'as it should';
  return `  ${n}. ${r.status}, exit ${run.exitCode}, ${run.seconds.toFixed(1)} s; flaky: ${flaky || 'none named'}; ${ending}${r.status === 'nothing_to_fix' ? ' (the baseline passed)' : ''}`;
}

const out = mkdtempSync(join(tmpdir(), 'fixloop-flaky-bench-out-'));
const summary: string[] = [];
try {
  for (const way of WAYS) {
    console.log(`${way.name}: ${runs} runs`);
    let good = 0;
    const endings = new Map<string, number>();
    for (let n = 1; n <= runs; n++) {
      const repo = await repositoryOf(issueRepository(way.addBroken), 'fixloop-flaky-bench-');
      try {
        const run = await fixloopRun(repo, ['--test', 'npm test', '--sandbox', sandbox], join(out, `${way.addBroken}-${n}`));
        const wrong = run.result ? way.judge(run.result) : 'no result';
        if (!wrong) good++;
        const status = run.result?.status ?? 'no result';
        endings.set(status, (endings.get(status) ?? 0) + 1);
        console.log(line(n, run, wrong));
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    }
    const ended = [...endings].map(([status, count]) => `${status} ${count}`).join(', ');
    summary.push(`| ${way.name} | ${runs} | ${good} | ${ended} |`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
console.log(`\n| Repository | Runs | As they should | Ended |\n| --- | ---: | ---: | --- |\n${summary.join('\n')}`);
