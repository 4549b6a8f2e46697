// Helpers of the JavaScript probe's tests: a throw-away project folder, a fixture instrumented into it,
// real processes run in it, and the records they wrote.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { instrumentJs } from '../../../src/assess/js/probe.ts';
import type { InstrumentedFile, ProbeRecord } from '../../../src/assess/probe-record.ts';

export const FIXTURES = path.resolve('test/fixtures/assess/js');
/** Node 24, fixloop's own; `node` on PATH is the machine's (20 here). */
export const NODE24 = path.resolve('node_modules/node/bin/node');
export const NODE_MODULES = path.resolve('node_modules');

const made: string[] = [];

export function tempProject(withModules = false): string {
  const root = mkdtempSync(path.join(tmpdir(), 'fixloop-jsprobe-'));
  made.push(root);
  if (withModules) symlinkSync(NODE_MODULES, path.join(root, 'node_modules'));
  return root;
}

export function removeProjects(): void {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
}

export function recordFile(root: string): string {
  return path.join(root, '.fixloop-probe', 'records.jsonl');
}

export function fixture(name: string): string {
  return readFileSync(path.join(FIXTURES, name), 'utf8');
}

export function allLines(source: string): Set<number> {
  return new Set(source.split('\n').map((_, index) => index + 1));
}

/** Writes `source` into the project at `file`, instrumented for `lines` (every line by default). */
export function instrumentInto(
  root: string,
  file: string,
  source: string,
  lines: ReadonlySet<number> = allLines(source),
): InstrumentedFile {
  const result = instrumentJs(source, lines, {
    recordFile: recordFile(root),
    path: file,
    runtimeDir: path.join(root, '.fixloop-probe'),
  });
  if (!result) throw new Error(`${file}: nothing instrumented`);
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), result.source);
  return result;
}

export function writeInto(root: string, file: string, source: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), source);
}

export function records(root: string): ProbeRecord[] {
  const file = recordFile(root);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ProbeRecord);
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Ran {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The records of one function, by kind. */
export function of(all: readonly ProbeRecord[], fn: string, kind: ProbeRecord['kind']): ProbeRecord[] {
  return all.filter((record) => record.fn === fn && record.kind === kind);
}
