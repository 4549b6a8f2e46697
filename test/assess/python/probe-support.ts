// Helpers for the Python probe's tests: a fixture folder copied to a temp dir, its files
// instrumented as the assessment would, the runtime copied in, real pytest run there, records read.
import type { ChangeValues } from '../../../src/assess/change-values.ts';
import { spawn, spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instrumentPython, PYTHON_PROBE_RUNTIME_FILES } from '../../../src/assess/python/probe.ts';
import type { ProbedFunction, ProbeRecord } from '../../../src/assess/probe-record.ts';

/**
 * pyenv's shim costs a second per python3 here: put the interpreter it resolves to first on PATH
 * (this test process only), so the parser and pytest start fast. Same Python, no mock.
 */
export function preferResolvedPython(): void {
  const found = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const executable = found.stdout.trim();
  if (found.status === 0 && executable !== '') process.env.PATH = `${dirname(executable)}${delimiter}${process.env.PATH ?? ''}`;
}

export const FIXTURES = fileURLToPath(new URL('../../fixtures/assess/py/', import.meta.url));

const dirs: string[] = [];
export async function cleanup(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-pyprobe-'));
  dirs.push(dir);
  return dir;
}

/** Every line of the file, as when a whole file is new. */
export function allLines(source: string): Set<number> {
  return new Set(source.split('\n').map((_, i) => i + 1));
}

export interface Prepared {
  dir: string;
  recordFile: string;
  functions: ProbedFunction[];
}

/**
 * `files` ([name in the checkout, text]) written into a fresh checkout, the `probed` ones instrumented
 * on the given changed lines, with the runtime copied where the header loads it from.
 */
export async function prepare(
  files: Array<[string, string]>,
  probed: Record<string, ReadonlySet<number>>,
  values?: ChangeValues,
): Promise<Prepared> {
  const dir = await tempDir();
  const runtimeDir = join(dir, '.fixloop-probe');
  const recordFile = join(dir, '.fixloop-probe', 'records.jsonl');
  await mkdir(runtimeDir);
  for (const { from, name } of PYTHON_PROBE_RUNTIME_FILES) await copyFile(from, join(runtimeDir, name));
  const functions: ProbedFunction[] = [];
  for (const [path, source] of files) {
    const lines = probed[path];
    let text = source;
    if (lines !== undefined) {
      const instrumented = await instrumentPython(source, lines, { recordFile, path, runtimeDir, ...(values ? { values } : {}) });
      if (instrumented === null) throw new Error(`${path}: not instrumented`);
      text = instrumented.source;
      functions.push(...instrumented.functions);
    }
    await writeFile(join(dir, path), text);
  }
  return { dir, recordFile, functions };
}

/** A fixture file as [its name in the checkout (its base name), its text]. */
export async function fixture(path: string): Promise<[string, string]> {
  return [basename(path), await readFile(join(FIXTURES, path), 'utf8')];
}

export interface PytestRun {
  code: number | null;
  /** `PASSED test_x.py::test_a` lines of `-rA`, sorted. */
  outcomes: string[];
  output: string;
}

/** Real pytest, warnings as errors, no cache or bytecode written into the checkout. */
export function pytest(dir: string): Promise<PytestRun> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
    delete env.PYTEST_ADDOPTS;
    delete env.PYTEST_CURRENT_TEST;
    const child = spawn('python3', ['-W', 'error', '-m', 'pytest', '-q', '-rA', '-W', 'error', '-p', 'no:cacheprovider'], {
      cwd: dir,
      env,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      const outcomes = output
        .split('\n')
        .filter((l) => /^(PASSED|FAILED|ERROR) /.test(l))
        .map((l) => l.replace(/ - .*$/, ''))
        .sort();
      resolve({ code, outcomes, output });
    });
  });
}

export async function records(file: string): Promise<ProbeRecord[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as ProbeRecord);
}
