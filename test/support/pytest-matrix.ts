// pytest's conformance matrix (test/runners/conformance-pytest.test.ts): its cells, its project's fix,
// the recordings' index (written by record-pytest-matrix.ts) and what each run's view must be.
import { join } from 'node:path';

export const MATRIX = join(import.meta.dirname, '../fixtures/runners/pytest/matrix');

/** The terminal flags of the matrix, by the name of their cell; xdist's only where it is installed. */
export const CELLS: ReadonlyArray<{ cell: string; flags: string; plugin?: 'xdist' }> = [
  { cell: 'default', flags: '' },
  { cell: 'q', flags: '-q' },
  { cell: 'qq', flags: '-qq' },
  { cell: 'tb-no', flags: '--tb=no' },
  { cell: 'no-terminal', flags: '-p no:terminal' },
  { cell: 'rA', flags: '-rA' },
  { cell: 'xdist', flags: '-n 2', plugin: 'xdist' },
];

/** The project's fix: `add` adds, `parity` of 3 is odd. */
export const FIX: ReadonlyArray<readonly [string, string]> = [
  ['return a + b + 1', 'return a + b'],
  [' or n > 2', ''],
];

export interface MatrixRun {
  pytest: number;
  cell: string;
  run: 'broken' | 'fixed';
  command: string;
  exitCode: number;
  /** Files beside runs.json. */
  output: string;
  records: string;
}

export interface MatrixIndex {
  /** By pytest's major version: `pytest --version`, and whether pytest-subtests was installed beside it. */
  recordedWith: Record<string, { version: string; subtestsPlugin: boolean }>;
  runs: MatrixRun[];
}

/**
 * The matrix's project (test/fixtures/runners/pytest/matrix/project/), as it is or fixed, as pytest at
 * `major` reports it: one line per test, `<id> <status>`, in the order the tests end.
 */
export function matrixView(major: number, subtestsPlugin: boolean, fixed = false): string[] {
  const parity = 'tests/test_parity.py::TestParity::test_small_numbers';
  const subtests =
    major >= 9
      ? [`${parity} (n=1) passed`, `${parity} (n=2) passed`, `${parity} (n=3) ${fixed ? 'passed' : 'failed'}`, `${parity} passed`]
      : // pytest-subtests reports a TestCase's failing subtests only; without it, the test fails whole.
        subtestsPlugin
        ? [...(fixed ? [] : [`${parity} (n=3) failed`]), `${parity} passed`]
        : [`${parity} ${fixed ? 'passed' : 'failed'}`];
  return [
    `tests/test_math.py::test_adds ${fixed ? 'passed' : 'failed'}`,
    'tests/test_math.py::test_subtracts passed',
    'tests/test_math.py::test_increments[1-2] passed',
    'tests/test_math.py::test_increments[2-3] passed',
    'tests/test_math.py::test_later skipped',
    'tests/test_parity.py::TestParity::test_one passed',
    ...subtests,
  ];
}
