// Records pytest's conformance matrix (test/runners/conformance-pytest.test.ts): the matrix's project
// (test/fixtures/runners/pytest/matrix/project/: a failing and passing test, a parametrized one, a
// unittest.TestCase with self.subTest, a skipped one, in two files), as it is and with its fix, run
// through the gate with pytest's runtime guard as a judged run runs it (installed plugins autoloaded,
// as a project's own run loads them), at each pytest of this machine (pyenv's python3 with pytest 9,
// Debian's /usr/bin/python3 with pytest 7) under each terminal flag. It writes the output and the
// guard's records as fixloop read them (signed, validated), with what varies from run to run (pids,
// the project's folder, durations, addresses) made constant, and the index runs.json. Run:
//   node test/support/record-pytest-matrix.ts
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GuardRecord } from '../../src/core/guard-record.ts';
import { runGate } from '../../src/gate/run-gate.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { PYTESTS, pytestProject, removePytestProjects } from './pytest-guard-run.ts';
import { CELLS, FIX, MATRIX, type MatrixIndex } from './pytest-matrix.ts';
import { execFileSync } from 'node:child_process';

/** What differs between two recordings of one run, made constant. */
function constant(text: string, project: string): string {
  return text
    .replaceAll(realpathSync(project), '<project>')
    .replaceAll(project, '<project>')
    .replace(/\/\S*\/fixloop-report-\w+\//g, '<reports>/')
    .replace(/\b0x[0-9a-f]{6,}\b/g, '0x0')
    .replace(/ in \d+\.\d+s\b/g, ' in 0.10s');
}

function records(list: GuardRecord[], project: string): GuardRecord[] {
  return list.map((record) => JSON.parse(constant(JSON.stringify({ ...record, pid: 0 }), project)) as GuardRecord);
}

async function record(): Promise<void> {
  const sandbox = createProcessSandbox();
  const index: MatrixIndex = { recordedWith: {}, runs: [] };
  for (const pytest of PYTESTS) {
    const version = execFileSync(pytest.python, ['-m', 'pytest', '--version'], { encoding: 'utf8' }).trim();
    index.recordedWith[String(pytest.major)] = { version, subtestsPlugin: pytest.plugins.subtests };
    mkdirSync(join(MATRIX, `pytest-${pytest.major}`), { recursive: true });
    for (const { cell, flags, plugin } of CELLS) {
      if (plugin && !pytest.plugins[plugin]) continue;
      for (const run of ['broken', 'fixed'] as const) {
        const cwd = pytestProject();
        if (run === 'fixed') {
          const calc = join(cwd, 'calc.py');
          writeFileSync(
            calc,
            FIX.reduce((text, [from, to]) => text.replace(from, to), readFileSync(calc, 'utf8')),
          );
        }
        const command = `${pytest.python} -m pytest -p no:cacheprovider ${flags}`.trim();
        const gate = await runGate(sandbox, {
          command,
          cwd,
          timeoutMs: 120_000,
          witness: true,
          guard: { testFiles: ['tests/test_math.py', 'tests/test_parity.py'] },
        });
        const base = `pytest-${pytest.major}/${cell}.${run}`;
        writeFileSync(join(MATRIX, `${base}.txt`), constant(gate.output, cwd));
        writeFileSync(
          join(MATRIX, `${base}.records.json`),
          `${JSON.stringify(records(gate.report.guard?.records ?? [], cwd), null, 2)}\n`,
        );
        const exitCode = gate.passed ? 0 : (gate.exitCode ?? -1);
        index.runs.push({
          pytest: pytest.major,
          cell,
          run,
          command,
          exitCode,
          output: `${base}.txt`,
          records: `${base}.records.json`,
        });
        console.log(`${base}: exit ${exitCode}`);
      }
    }
  }
  writeFileSync(join(MATRIX, 'runs.json'), `${JSON.stringify(index, null, 2)}\n`);
  removePytestProjects();
}

if (process.argv[1] === import.meta.filename) await record();
