// The embedded `repair` engine through `fixloop run`: real JS, TS and Python bugs, real runners.
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { borrowedRunners } from '../support/borrowed-runners.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';
import { runCli } from '../support/run-cli.ts';
import { JS_PAGINATION } from '../fixtures/pagination.ts';
import { fullSuite } from '../support/suite-tier.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

async function repair(
  files: Record<string, string>,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; result: RunResult; stderr: string }> {
  const project = await makeRepo(files);
  const cwd = await makeRepo({});
  dirs.push(project, cwd);
  const run = await runCli(['run', project, '--json', '--out', `${cwd}/out`, ...args], { cwd, env });
  return { code: run.code, result: JSON.parse(run.stdout) as RunResult, stderr: run.stderr };
}

// A run that explores after its first plausible candidate and assesses the patch: minutes on a loaded machine.
describe('fixloop run with the repair engine', { timeout: 240_000 }, () => {
  // That the same repository gives the same patch again is test/slow/repair-determinism.test.ts's
  // (`npm run test:full`): a second whole run, and the patch is pinned here already.
  it.runIf(fullSuite)('fixes an off-by-one in JavaScript and shows the reviewer what else the fix changed', async () => {
    const first = await repair(JS_PAGINATION, ['--test', 'node --test']);
    expect(first.result.status).toBe('tests_green');
    // The fix is right, and it changes pages the suite never asks for: a size of 0 gave four items.
    expect(first.result.assessment?.level).toBe('review');
    expect(first.result.assessment?.behaviourChanges).toContainEqual(
      expect.objectContaining({
        input: 'pageItems([1, 2, 3, 4, 5], 3, 0)',
        before: '[1, 2, 3, 4]',
        after: '[]',
        nearFailing: false,
      }),
    );
    expect(first.code, first.stderr).toBe(4);
    expect(first.result.engine).toBe('repair');
    expect(first.result.patch).toContain('+  return items.slice(start, start + size);');
    expect(first.result.cost).toEqual({ usd: 0, tokens: 0 });
    expect(first.result.attempts[0]?.engineStats).toMatchObject({
      candidates: expect.any(Number),
      testExecutions: expect.any(Number),
    });
  });

  it.runIf(fullSuite)('fixes a wrong operator in TypeScript', async () => {
    const { code, result } = await repair(
      {
        'package.json': '{ "type": "module", "private": true }\n',
        'src/grade.ts': [
          'export type Grade = "A" | "B" | "C" | "F";',
          '',
          'export function grade(score: number): Grade {',
          '  if (score >= 90) return "A";',
          '  if (score >= 75) return "B";',
          '  if (score <= 50) return "C";',
          '  return "F";',
          '}',
          '',
        ].join('\n'),
        'test/grade.test.ts': [
          "import assert from 'node:assert/strict';",
          "import { test } from 'node:test';",
          "import { grade } from '../src/grade.ts';",
          '',
          "test('top scores get an A', () => assert.equal(grade(95), 'A'));",
          "test('middle scores get a C', () => assert.equal(grade(60), 'C'));",
          "test('low scores fail', () => assert.equal(grade(20), 'F'));",
          // The bound itself, so `score > 50` does not pass too: the assessment tries 50 (a constant
          // of the change) and would rightly call the two an ambiguity the tests do not decide.
          "test('fifty is the lowest C', () => assert.equal(grade(50), 'C'));",
          '',
        ].join('\n'),
        // The exploration after the first plausible candidate is the JavaScript case's; this one is TypeScript's and the assessment's.
        'fixloop.yml': 'repair:\n  exploreTime: 0\n',
      },
      ['--test', 'node --test'],
      // The user's Node is 24, which strips TypeScript's types (the machine's is 20).
      borrowedRunners(),
    );
    expect(result.status).toBe('tests_green');
    expect(result.environment?.toolchains.find((t) => t.name === 'node')?.version).toMatch(/^v24\./);
    expect(result.patch).toContain('+  if (score >= 50) return "C";');
    // Negative scores were a C and are now an F, as the failing test's grade(20) asks: changes the
    // failing tests ask for, so nothing is left for the reviewer (how such an input is told near the
    // failing tests, by its path and its value: test/assess/compare-and-level.test.ts).
    expect(result.assessment?.behaviourChanges).toContainEqual(
      expect.objectContaining({ kind: 'generated', input: 'grade(-1)', before: "'C'", after: "'F'", nearFailing: true }),
    );
    expect(result.assessment?.counts.changes).toBe(result.assessment?.counts.nearFailing);
    expect(result.assessment?.level, result.assessment?.reason).toBe('verified');
    expect(code).toBe(0);
    expect(result.verification?.failToPass.length).toBe(2);
  });

  it.runIf(fullSuite)('fixes a TypeScript bug under vitest, validating its candidates with vitest', async () => {
    // The repair engine's candidates validated by vitest end to end, on TypeScript (the runner and
    // language of the real bug in test/slow/repair-real-bugs.test.ts, which `npm run test:full` runs).
    const { code, result, stderr } = await repair(
      {
        'package.json': '{ "name": "shipping", "type": "module", "private": true }\n',
        'src/shipping.ts': [
          'export interface Parcel {',
          '  grams: number;',
          '}',
          '',
          '/** Parcels of 2 kg or more ship as freight. */',
          'export function isFreight(parcel: Parcel): boolean {',
          '  return parcel.grams > 2000;',
          '}',
          '',
        ].join('\n'),
        'test/shipping.test.ts': [
          "import { expect, test } from 'vitest';",
          "import { isFreight } from '../src/shipping.ts';",
          '',
          "test('a parcel of exactly 2 kg ships as freight', () => expect(isFreight({ grams: 2000 })).toBe(true));",
          "test('a light parcel does not', () => expect(isFreight({ grams: 500 })).toBe(false));",
          '',
        ].join('\n'),
        // What is tested here is the engine and vitest; the exploration and the assessment are the two cases above.
        'fixloop.yml': 'repair:\n  exploreTime: 0\nassessment:\n  enabled: false\n',
      },
      ['--test', 'vitest run'],
      borrowedRunners(),
    );
    expect(code, stderr.slice(-3000)).toBe(0);
    expect(result.status).toBe('tests_green');
    expect(result.baseline).toMatchObject({ failed: 1, format: 'vitest' });
    expect(result.verification?.failToPass).toEqual([expect.stringContaining('a parcel of exactly 2 kg ships as freight')]);
    expect(result.patch).toContain('+  return parcel.grams >= 2000;');
    expect(result.attempts[0]?.engineStats?.testExecutions).toBeGreaterThan(0);
  });

  it.runIf(fullSuite)('fixes a Python bug raised deep in the code', async () => {
    const { code, result } = await repair(
      {
        'inventory.py': [
          'class Inventory:',
          '    def __init__(self):',
          '        self.stock = {}',
          '',
          '    def add(self, sku, qty):',
          '        self.stock[sku] = self.stock.get(sku, 0) + qty',
          '',
          '    def remove(self, sku, qty):',
          '        have = self.stock.get(sku, 0)',
          '        if qty < have:',
          '            raise ValueError("not enough stock")',
          '        self.stock[sku] = have - qty',
          '',
        ].join('\n'),
        'tests/test_inventory.py': [
          'import pytest',
          'from inventory import Inventory',
          '',
          '',
          'def test_remove_some():',
          '    inv = Inventory()',
          '    inv.add("a", 5)',
          '    inv.remove("a", 2)',
          '    assert inv.stock["a"] == 3',
          '',
          '',
          'def test_remove_too_many():',
          '    inv = Inventory()',
          '    inv.add("a", 1)',
          '    with pytest.raises(ValueError):',
          '        inv.remove("a", 2)',
          '',
        ].join('\n'),
        // What is tested here is the engine reaching the raise; the exploration after the first plausible
        // candidate and the assessment are tested by the two cases above, on JavaScript and TypeScript.
        // pytest without the installed plugins' autoload (hypothesis, pytest-benchmark: ~2 s of every
        // pytest start here, and of every candidate's run), which the project does not use.
        'fixloop.yml': 'env:\n  PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1"\nrepair:\n  exploreTime: 0\nassessment:\n  enabled: false\n',
      },
      ['--test', 'python3 -m pytest -q'],
    );
    expect(code).toBe(0);
    expect(result.status).toBe('tests_green');
    expect(result.patch).toContain('+        if qty > have:');
  });

  // Full tier: an engine that finds nothing ends escalated in test/integration/app-e2e.test.ts.
  it.runIf(fullSuite)('gives up fast and honestly on a bug no template can fix', async () => {
    const started = Date.now();
    const { code, result } = await repair(
      {
        'package.json': '{ "type": "module", "private": true }\n',
        'src/words.js': 'export function titleCase(text) {\n  return text;\n}\n',
        'test/words.test.js':
          "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { titleCase } from '../src/words.js';\ntest('capitalizes each word', () => assert.equal(titleCase('hello big world'), 'Hello Big World'));\n",
      },
      ['--test', 'node --test'],
    );
    expect(code).toBe(1);
    expect(result.status).toBe('escalated');
    expect(result.stopReason).toBe('engines_exhausted');
    expect(result.attempts).toHaveLength(1);
    expect(result.attempts[0]?.summary).toMatch(/no candidate passed|no repair template applies/);
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});

describe('the demo', () => {
  it('fixes examples/invoice-calc with the default engine', async () => {
    const cwd = await makeRepo({});
    dirs.push(cwd);
    const run = await runCli(
      ['run', new URL('../../examples/invoice-calc', import.meta.url).pathname, '--json', '--out', `${cwd}/out`],
      { cwd },
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as RunResult;
    expect(result.status).toBe('tests_green');
    expect(result.patch).toContain('+    if (quantity >= tier.minQuantity) {');
  });
});
