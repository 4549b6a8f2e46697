// Harness tampering from source (docs/design.md §3.2.3): code under test that ends the process or
// rewrites its exit status, reaches into the test framework or the assertion library, or reads the
// tests at run time, makes a suite say green without a fix. Found on the syntax tree of the
// patch's added lines in the files it changes that are not tests (tests are the runner's own, and
// changing them is already refused), in the pristine checkout the patch was applied to, before
// any of the repository's code runs there. Lines the patch did not add are never findings: a CLI
// that already calls `process.exit` is not a cheat. A changed file the check cannot read (a syntax
// error, a tree too deep for the parser, bytes that are not text, a coding cookie that makes Python
// read other text than the bytes show) is itself a finding: the check fails closed.
import { lstat, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import picomatch from 'picomatch';
import { DEFAULT_PROTECTED_PATHS } from '../core/repo-config.ts';
import type { Finding } from '../core/findings.ts';
import { RUNNER_EQUALITY_HOOKS, RUNNER_VARIABLE_VALUES, RUNNER_VARIABLES } from '../runners/registry.ts';
import { plainGit } from '../workspace/plain-git.ts';
import type { RunnerTraits } from './harness-tampering-js-runner.ts';
import { findJsTampering } from './harness-tampering-js.ts';
import { findPythonTampering, type PythonFile, type Unreadable } from './harness-tampering-py.ts';
import { JS_SOURCE } from '../core/js-tree.ts';
import type { TamperHit, TamperRule } from './tamper-hit.ts';

const WHY: Record<TamperRule, string> = {
  exit: 'code under test may not end the process or rewrite its exit status',
  'test-framework': 'code under test may not reach into the test framework or the assertion library',
  'reads-tests': 'code under test may not read the tests',
  'detects-runner': 'code under test may not detect the test runner (it would be right only under test)',
  'equals-anything': 'a value that compares equal to anything passes an equality assertion without being right',
  'own-equality':
    'a number or a string that compares by a rule the patch wrote passes an equality assertion by that rule, not by the value it holds',
  'runner-equality': "a value that answers the runner's equality protocol itself passes its assertions by the patch's rule",
};

/** Folders whose files are tests wherever they sit. */
const TEST_FOLDERS = new Set(['test', 'tests', '__tests__', 'spec']);

/** Whether a repository path is a test file: the test globs, the configured ones, the baseline's. */
export type TestFileCheck = (path: string) => boolean;

export function testFileCheck(protectedGlobs: readonly string[], baselineTestFiles: ReadonlySet<string>): TestFileCheck {
  const globs = [...DEFAULT_PROTECTED_PATHS, ...protectedGlobs].filter((g) => !g.startsWith('.github'));
  const matches = picomatch(globs, { dot: true });
  return (path) => baselineTestFiles.has(path) || matches(path);
}

/** The new-side line numbers each file's hunks add, from a unified diff in git's format. */
export function addedLines(patch: string): Map<string, Set<number>> {
  const files = new Map<string, Set<number>>();
  const lines = patch.split('\n');
  let file: Set<number> | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('diff --git ')) file = null;
    if (line.startsWith('+++ ')) {
      const path = unquote(line.slice(4).replace(/\t.*$/, ''));
      file = path === '/dev/null' ? null : (files.get(path.replace(/^b\//, '')) ?? new Set());
      if (file) files.set(path.replace(/^b\//, ''), file);
      continue;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!hunk || !file) continue;
    // Walk the hunk by its counts, so an added line that starts with `+++` is still content.
    let oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
    let newLeft = hunk[3] === undefined ? 1 : Number(hunk[3]);
    let at = Number(hunk[2]);
    while ((oldLeft > 0 || newLeft > 0) && i + 1 < lines.length) {
      const body = lines[++i] ?? '';
      if (body.startsWith('+')) {
        file.add(at++);
        newLeft--;
      } else if (body.startsWith('-')) {
        oldLeft--;
      } else if (!body.startsWith('\\')) {
        at++;
        oldLeft--;
        newLeft--;
      }
    }
  }
  return files;
}

function unquote(path: string): string {
  if (!path.startsWith('"')) return path;
  try {
    return JSON.parse(path) as string;
  } catch {
    return path;
  }
}

/**
 * Whether a path the code reads names a test file: it lives under a test folder, or it is (as
 * written, or relative to the reading file) a path the test globs match.
 */
export function readsTests(target: string, from: string, isTestFile: TestFileCheck): boolean {
  const cleaned = target.replace(/^file:\/\//, '').replace(/\/+/g, '/');
  const segments = cleaned.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.slice(0, -1).some((s) => TEST_FOLDERS.has(s)) || (segments.length > 0 && TEST_FOLDERS.has(segments.at(-1) ?? '')))
    return true;
  const candidates = [
    segments.filter((s) => s !== '..').join('/'),
    posix.normalize(posix.join(posix.dirname(from), cleaned)).replace(/^(\.\.\/)+/, ''),
  ];
  // A module path without its extension (`../tests/helpers`, `tests.test_x` made a path) still counts.
  return candidates.some((c) => c !== '' && (isTestFile(c) || isTestFile(`${c}.js`) || isTestFile(`${c}.py`)));
}

export interface TamperingInput {
  /** The pristine checkout with the patch applied, before any of its code has run. */
  dir: string;
  patch: string;
  isTestFile: TestFileCheck;
  log: (line: string) => void;
}

export async function harnessTampering(input: TamperingInput): Promise<Finding[]> {
  const findings: Finding[] = [];
  const python: PythonFile[] = [];
  const unreadable: Unreadable[] = [];
  const files = [...addedLines(input.patch)].filter(([path, added]) => added.size > 0 && !input.isTestFile(path));
  const traits: RunnerTraits = {
    env: RUNNER_VARIABLES,
    values: RUNNER_VARIABLE_VALUES,
    // Asked of git only when the patch adds JavaScript: the equality methods are JavaScript's.
    hooks: files.some(([path]) => JS_SOURCE.test(path)) ? await hooksNotYetDefined(input.dir, input.isTestFile) : [],
  };
  for (const [path, added] of files) {
    const isJs = JS_SOURCE.test(path);
    if (!isJs && !path.endsWith('.py')) continue;
    const bytes = await readRegularFile(join(input.dir, path));
    if (bytes === null) continue;
    if (!isJs) {
      python.push({ path, source: bytes, added });
      continue;
    }
    const read = readJs(path, bytes, added, traits);
    if ('why' in read) unreadable.push({ path, why: read.why });
    else findings.push(...toFindings(path, read.hits, input.isTestFile));
  }
  const py = await findPythonTampering(python, RUNNER_VARIABLES);
  for (const file of python) findings.push(...toFindings(file.path, py.hits.get(file.path) ?? [], input.isTestFile));
  unreadable.push(...py.unreadable);
  for (const { path, why } of unreadable)
    findings.push({
      kind: 'harness_unreadable',
      path,
      message: `\`${path}\` could not be read by the harness check: ${why}. A changed file the judge cannot read is not judged by the suite alone`,
    });
  if (unreadable.length > 0)
    input.log(`replay: harness check could not read ${unreadable.map((u) => `\`${u.path}\``).join(', ')}`);
  return findings;
}

/** A JavaScript or TypeScript file's hits, or why it could not be read. */
function readJs(
  path: string,
  bytes: Buffer,
  added: ReadonlySet<number>,
  traits: RunnerTraits,
): { hits: TamperHit[] } | { why: string } {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { why: 'it is not UTF-8 text' };
  }
  try {
    const hits = findJsTampering(path, text, added, traits);
    return hits
      ? { hits }
      : {
          why: 'it does not parse as JavaScript or TypeScript (a syntax error, or an expression nested too deep for the parser)',
        };
  } catch (error) {
    if (error instanceof RangeError) return { why: 'an expression nested too deep for the check to walk' };
    throw error;
  }
}

/**
 * The runners' equality methods the project's own code (the pristine commit, tests aside) never
 * names: a library of matchers defines them honestly; anywhere else a patch that adds one decides
 * the assertion. A commit git cannot search keeps them all: the check fails closed.
 */
async function hooksNotYetDefined(dir: string, isTestFile: TestFileCheck): Promise<string[]> {
  const kept: string[] = [];
  for (const hook of RUNNER_EQUALITY_HOOKS) {
    const found = await plainGit(dir, ['grep', '-l', '-F', '-e', hook, 'HEAD', '--']).catch(() => '');
    const own = found
      .split('\n')
      .map((line) => line.replace(/^HEAD:/, ''))
      .filter((path) => path !== '' && !isTestFile(path) && !/(^|\/)node_modules\//.test(path));
    if (own.length === 0) kept.push(hook);
  }
  return kept;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function toFindings(path: string, hits: TamperHit[], isTestFile: TestFileCheck): Finding[] {
  return hits
    .filter((hit) => hit.rule !== 'reads-tests' || (hit.target !== undefined && readsTests(hit.target, path, isTestFile)))
    .map((hit) => ({
      kind: 'harness_tampering',
      path,
      message: `\`${path}:${hit.line}\` ${hit.what}: ${WHY[hit.rule]} (rule \`${hit.rule}\`)`,
    }));
}

/** The file's bytes, unless it is a symlink or not a regular file (the constraints speak to those). */
async function readRegularFile(path: string): Promise<Buffer | null> {
  try {
    const stat = await lstat(path);
    return stat.isFile() ? await readFile(path) : null;
  } catch {
    return null;
  }
}
