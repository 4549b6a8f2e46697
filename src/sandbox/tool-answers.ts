// The operator's npm and pip asked about their configuration once for many fixloop processes: each
// command-line run is a process of its own, and `npm config list` and `pip config list` cost about
// 0.3 s and 0.7 s of CPU at every start. An answer is kept in fixloop's cache folder and reused only
// while everything it came from is as it was: the same program file, the same environment (a hash of
// it: no value is stored), every configuration file the tool reads unchanged or still absent; and an
// hour at most, for a file the tool reads that fixloop does not know of. The folder is the user's
// own and private, as the settings themselves are (~/.npmrc, pip.conf); anywhere else nothing is kept.
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const MAX_AGE_MS = 60 * 60 * 1000;
/**
 * Variables a shell changes from one folder or level to the next. The tools run from `/`; a setting
 * spelled `${PWD}` in an npmrc is the one thing this could miss, and nobody points a registry there.
 */
const VOLATILE = new Set(['_', 'PWD', 'OLDPWD', 'SHLVL']);

export interface ToolQuestion {
  /** What is asked, as a name in the cache (`npm config list`). */
  name: string;
  /** The program run; its real file's identity is part of the question (an upgrade asks again). */
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

interface KeptAnswer<T> {
  at: number;
  /** Each file the answer came from: its identity and size and time, or `absent`. */
  reads: Record<string, string>;
  answer: T;
}

function stamp(path: string): string {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}` : 'absent';
}

/** The file a path finds through its links; the path itself when it cannot be followed. */
export function realFile(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function questionKey(question: ToolQuestion): string {
  const real = realFile(question.file);
  const env = Object.entries(question.env)
    .filter(([name, value]) => value !== undefined && !VOLATILE.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify([question.name, real, stamp(real), question.args, env]))
    .digest('hex')
    .slice(0, 32);
}

/** The answers' folder under `cacheRoot`, when it is (or is made) this user's own and private; else null. */
function answersFolder(cacheRoot: string): string | null {
  const dir = join(cacheRoot, 'tool-answers');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return null;
  }
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  const uid = process.getuid?.();
  if (!stat || !stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) return null;
  return dir;
}

/** The answer kept in `file`, or null when there is none, or none fixloop wrote (it is then asked again). */
function keptAnswer<T>(file: string): KeptAnswer<T> | null {
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<KeptAnswer<T>>;
    if (
      typeof kept.at !== 'number' ||
      kept.answer === undefined ||
      kept.answer === null ||
      !kept.reads ||
      typeof kept.reads !== 'object'
    )
      return null;
    return kept as KeptAnswer<T>;
  } catch {
    return null;
  }
}

const stillTrue = (kept: KeptAnswer<unknown>, now: number) =>
  now - kept.at >= 0 && now - kept.at < MAX_AGE_MS && Object.entries(kept.reads).every(([path, was]) => stamp(path) === was);

/**
 * `ask()`'s answer (kept as JSON), or the one kept from an earlier process for the same question while
 * the files it came from (`reads` of that answer) are unchanged. A null answer (the tool failed) is
 * never kept; without a usable cache folder (`cacheRoot` null, not private, not writable) the tool is
 * asked.
 */
export function askOnce<T>(
  cacheRoot: string | null,
  question: ToolQuestion,
  reads: (answer: T) => string[],
  ask: () => T | null,
): T | null {
  const dir = cacheRoot ? answersFolder(cacheRoot) : null;
  if (!dir) return ask();
  const file = join(dir, `${questionKey(question)}.json`);
  const kept = keptAnswer<T>(file);
  if (kept && stillTrue(kept, Date.now())) return kept.answer;
  const at = Date.now();
  const answer = ask();
  if (answer === null) return null;
  const files = reads(answer);
  // A file changed while the tool ran (or within the clock's grain before) may not be in the answer: not kept.
  if (files.some((path) => (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) >= at - 2000)) return answer;
  const record: KeptAnswer<T> = { at, reads: Object.fromEntries(files.map((path) => [path, stamp(path)])), answer };
  try {
    // Written aside, then renamed: another process never reads half an answer.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(record), { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // A full disk or a folder gone: the answer is still this process's.
  }
  removeExpired(dir, at);
  return answer;
}

/**
 * Answers past their hour are never used again: removed whenever a new one is written (rarely: the
 * environment or a file changed), or every new environment (a terminal's own variables) would leave
 * a file for good.
 */
function removeExpired(dir: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat && now - stat.mtimeMs > MAX_AGE_MS) rmSync(path, { force: true });
  }
}
