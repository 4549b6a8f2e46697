// Honest runs, again and again: a tamper finding that is sometimes false is as bad as one that is
// sometimes missed. Small projects under node --test, vitest, jest and pytest (vitest and jest lent
// from fixloop's own, as the tests lend them), each with one bug, are fixed by the `script` engine with the right one-line fix, `--runs` times each,
// `--parallel` runs at a time from the same source repository (as a benchmark or a busy App clones
// one repository for several runs at once). Every run must end `tests_green` with no finding; the
// table counts those that did not, and names what they said.
//   node bench/honest-soak.ts [--runs 50] [--parallel 2] [--sandbox auto|bwrap|process]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flag } from './lib/args.ts';
import { fixloopRun, repositoryOf } from './lib/cli-run.ts';
import { lentRunners } from './lib/lent-runners.ts';
import { median } from './lib/stats.ts';

const runs = Number(flag('--runs') ?? 50);
const parallel = Number(flag('--parallel') ?? 2);
const sandbox = flag('--sandbox') ?? 'auto';

interface Project {
  name: string;
  files: Record<string, string>;
  test: string;
  fix: string;
  /** Its runner is a package the bench's user lends it. */
  lent?: boolean;
}

/** One source file and its test, in a package whose runner gives `test` and `expect` as globals. */
const GLOBALS_TOTAL = {
  'src/total.js': 'export function total(items) {\n  return items.reduce((sum, item) => sum - item, 0);\n}\n',
  'test/total.test.js':
    "import { total } from '../src/total.js';\n\n" +
    "test('adds the items', () => expect(total([1, 2, 3])).toBe(6));\ntest('is 0 for none', () => expect(total([])).toBe(0));\n",
};

const PROJECTS: Project[] = [
  {
    name: 'node --test',
    files: {
      'package.json': '{ "name": "soak", "type": "module", "scripts": { "test": "node --test" } }\n',
      'src/total.js': 'export function total(items) {\n  return items.reduce((sum, item) => sum - item, 0);\n}\n',
      'test/total.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { total } from '../src/total.js';\n\n" +
        "test('adds the items', () => assert.equal(total([1, 2, 3]), 6));\ntest('is 0 for none', () => assert.equal(total([]), 0));\n",
    },
    test: 'npm test',
    fix: "sed -i 's/sum - item/sum + item/' src/total.js",
  },
  {
    name: 'vitest',
    files: {
      'package.json': '{ "name": "soak", "type": "module", "scripts": { "test": "vitest run --globals" } }\n',
      ...GLOBALS_TOTAL,
    },
    test: 'npm test',
    fix: "sed -i 's/sum - item/sum + item/' src/total.js",
    lent: true,
  },
  {
    name: 'jest',
    files: {
      'package.json': '{ "name": "soak", "scripts": { "test": "jest" } }\n',
      'src/total.js': 'exports.total = (items) => items.reduce((sum, item) => sum - item, 0);\n',
      'test/total.test.js':
        "const { total } = require('../src/total.js');\n\n" +
        "test('adds the items', () => expect(total([1, 2, 3])).toBe(6));\ntest('is 0 for none', () => expect(total([])).toBe(0));\n",
    },
    test: 'npm test',
    fix: "sed -i 's/sum - item/sum + item/' src/total.js",
    lent: true,
  },
  {
    name: 'pytest',
    files: {
      'total.py': 'def total(items):\n    return sum(items) - 1\n',
      'tests/test_total.py':
        'from total import total\n\n\ndef test_adds():\n    assert total([1, 2, 3]) == 6\n\n\ndef test_empty():\n    assert total([]) == 0\n',
      'pytest.ini': '[pytest]\npythonpath = .\n',
    },
    test: 'python3 -m pytest -q',
    fix: "sed -i 's/sum(items) - 1/sum(items)/' total.py",
  },
];

interface Outcome {
  ok: boolean;
  seconds: number;
  said: string;
}

async function honestRun(project: Project, repo: string, root: string): Promise<Outcome> {
  const out = mkdtempSync(join(root, 'out-'));
  const args = ['--test', project.test, '--engine', 'script', '--script', project.fix, '--max-attempts', '1'];
  const { result, seconds, said } = await fixloopRun(
    repo,
    [...args, '--sandbox', sandbox],
    out,
    project.lent ? lentRunners() : {},
  );
  rmSync(out, { recursive: true, force: true });
  if (!result) return { ok: false, seconds, said: `no JSON result: ${said}` };
  // Every finding the run met: its attempts' (a refused edit) and the replay's (the judge's).
  const findings = [...result.attempts.flatMap((a) => a.findings), ...(result.verification?.findings ?? [])];
  if (result.status === 'tests_green' && findings.length === 0) return { ok: true, seconds, said: '' };
  const why = result.error?.message ?? findings.map((f) => `${f.kind}: ${f.message}`).join('; ');
  return { ok: false, seconds, said: why || result.status };
}

const root = mkdtempSync(join(tmpdir(), 'fixloop-soak-'));
try {
  console.log(`| Project | Runs | Not green or with a finding | Median run |\n| --- | ---: | ---: | ---: |`);
  for (const project of PROJECTS) {
    const repo = await repositoryOf(project.files, 'fixloop-soak-repo-');
    const outcomes: Outcome[] = [];
    while (outcomes.length < runs) {
      const batch = Math.min(parallel, runs - outcomes.length);
      outcomes.push(...(await Promise.all(Array.from({ length: batch }, () => honestRun(project, repo, root)))));
    }
    rmSync(repo, { recursive: true, force: true });
    const bad = outcomes.filter((o) => !o.ok);
    const seconds = median(outcomes.map((o) => o.seconds)) ?? 0;
    console.log(`| ${project.name} | ${runs} | ${bad.length} | ${seconds.toFixed(1)} s |`);
    for (const said of new Set(bad.map((o) => o.said))) console.log(`  - ${said}`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
