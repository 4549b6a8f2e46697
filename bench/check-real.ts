// Checks every bug of the real corpus (bench/real): on the snapshot (the fix's parent plus the fix's
// tests) the recorded tests fail and nothing else does; with the upstream fix applied every test passes.
// Run: npm run bench:real:check [-- --filter <substring>] [--record]
// --record writes the failing tests it sees into meta.json (when building a bug), instead of comparing.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTestOutput } from '../src/gate/parse-test-output.ts';
import { loadRealCorpus, materializeReal, setUp, type RealBug } from './lib/real-corpus.ts';
import { shell } from './lib/workdir.ts';

const realDir = fileURLToPath(new URL('./real', import.meta.url));
const args = process.argv.slice(2);
const filterAt = args.indexOf('--filter');
const filter = filterAt >= 0 ? (args[filterAt + 1] ?? '') : '';
const record = args.includes('--record');
const TEST_TIMEOUT_MS = 300_000;

interface Observed {
  code: number | null;
  failed: string[];
  passed: string[];
  parsed: boolean;
  total: number;
  tail: string;
}

async function observe(bug: RealBug, fixed: boolean): Promise<Observed | string> {
  const dir = materializeReal(bug, 'check', fixed);
  try {
    const setupProblem = await setUp(bug, dir, (command, cwd) => shell(command, cwd, TEST_TIMEOUT_MS));
    if (setupProblem) return setupProblem;
    const run = await shell(bug.test, dir, TEST_TIMEOUT_MS);
    const report = parseTestOutput(`${run.stdout}\n${run.stderr}`);
    const ids = (status: string) => report.tests.filter((t) => t.status === status).map((t) => t.id);
    return {
      code: run.code,
      failed: ids('failed'),
      passed: ids('passed'),
      parsed: report.parsed,
      total: report.total,
      tail: `${run.stdout.slice(-2000)}\n${run.stderr.slice(-1000)}`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function compare(bug: RealBug, buggy: Observed, fixed: Observed): string[] {
  const errors: string[] = [];
  if (buggy.code === 0) errors.push('the tests pass on the snapshot (exit 0)');
  if (!buggy.parsed) errors.push(`no per-test results could be parsed from the snapshot's run:\n${buggy.tail}`);
  if (fixed.code !== 0 || fixed.failed.length > 0)
    errors.push(
      `with the upstream fix the tests still fail (exit ${fixed.code}; ${fixed.failed.join(', ') || 'no test named'}):\n${fixed.tail}`,
    );
  if (!fixed.parsed) errors.push('no per-test results could be parsed from the fixed run');
  const expected = record ? buggy.failed : bug.failing;
  const unexpected = buggy.failed.filter((id) => !expected.includes(id));
  const notFailing = expected.filter((id) => !buggy.failed.includes(id));
  // Runners that list only failing files' tests (vitest, jest without --verbose) name no passing test
  // of a green run: then the same number of tests, none failing, is the evidence.
  const listsAll = fixed.passed.length >= buggy.passed.length + buggy.failed.length;
  const notPassing = listsAll ? expected.filter((id) => !fixed.passed.includes(id)) : [];
  // The fixed run must not lose tests beyond the snapshot's failures (an upper bound kept from when
  // jest's summary of failing tests was counted twice).
  if (fixed.total < buggy.total - buggy.failed.length)
    errors.push(`the fixed run has ${fixed.total} tests, the snapshot's ${buggy.total}`);
  if (unexpected.length) errors.push(`other tests fail on the snapshot: ${unexpected.join(', ')}`);
  if (notFailing.length) errors.push(`recorded tests do not fail on the snapshot: ${notFailing.join(', ')}`);
  if (notPassing.length) errors.push(`recorded tests are not reported passing with the fix: ${notPassing.join(', ')}`);
  if (expected.length === 0) errors.push('no failing test recorded');
  return errors;
}

function recordFailing(bug: RealBug, failing: string[]): void {
  const path = join(bug.dir, 'meta.json');
  const meta = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  meta.failing = failing;
  writeFileSync(path, `${JSON.stringify(meta, null, 2)}\n`);
}

const bugs = loadRealCorpus(realDir, record).filter((b) => b.id.includes(filter));
let problems = 0;
for (const bug of bugs) {
  const started = performance.now();
  const buggy = await observe(bug, false);
  const fixed = typeof buggy === 'string' ? buggy : await observe(bug, true);
  const errors = typeof buggy === 'string' ? [buggy] : typeof fixed === 'string' ? [fixed] : compare(bug, buggy, fixed);
  if (record && errors.length === 0 && typeof buggy !== 'string') recordFailing(bug, [...new Set(buggy.failed)]);
  if (errors.length) problems++;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const failing = typeof buggy === 'string' ? '' : ` (${buggy.failed.length} failing: ${buggy.failed.join('; ').slice(0, 160)})`;
  console.log(
    `${errors.length ? 'FAIL' : 'ok  '} ${bug.id} ${seconds} s${failing}${errors.length ? `\n  ${errors.join('\n  ')}` : ''}`,
  );
}
console.log(`\n${bugs.length - problems} passed, ${problems} failed`);
process.exitCode = problems || bugs.length === 0 ? 1 : 0;
