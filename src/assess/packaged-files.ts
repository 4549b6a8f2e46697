// What an npm package ships, as npm itself says (its `files` list, .npmignore, the files it always
// adds): the look from outside the runner runs a published package without the rest of its checkout,
// so a fix left out of what users install is not there either. npm's own `pack --dry-run` decides,
// run in the tests' sandbox as the operator's npm, with the package's scripts off: no rule of
// fixloop's own about which files a package holds.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { shellQuote } from '../sandbox/shell-quote.ts';

/** npm's time to list the package: it reads the tree, runs nothing of the package's. */
const LIST_MS = 30_000;

export type PackagedFiles =
  | { kind: 'package'; files: ReadonlySet<string> }
  /** No package to publish: no package.json at the root, or one marked private (an application). */
  | { kind: 'not-a-package' }
  /** npm could not list it (not on the PATH, a package.json it refuses): `why` is for the log. */
  | { kind: 'unknown'; why: string };

/**
 * The files of the package at `dir`'s root, relative and `/`-separated, as `npm pack` would pack them;
 * `listFile`: where npm's answer is written (a path relative to `dir` that the package does not hold).
 */
export async function packagedFiles(
  dir: string,
  suite: Pick<SuiteRunner, 'plain'>,
  listFile: string,
  timeoutMs: number,
): Promise<PackagedFiles> {
  const manifest = await readFile(join(dir, 'package.json'), 'utf8').catch(() => null);
  if (manifest === null) return { kind: 'not-a-package' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifest);
  } catch {
    return { kind: 'unknown', why: 'package.json does not parse' };
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { private?: unknown }).private === true)
    return { kind: 'not-a-package' };
  const out = join(dir, listFile);
  await rm(out, { force: true });
  // To a file, not the output: npm's notices go to stderr, and a large package's list would pass the
  // output's cap.
  const command = `npm pack --dry-run --json --ignore-scripts > ${shellQuote(listFile)} 2>/dev/null`;
  const result = await suite.plain(dir, command, Math.min(LIST_MS, timeoutMs));
  const text = await readFile(out, 'utf8').catch(() => '');
  await rm(out, { force: true });
  if (result.exitCode !== 0) return { kind: 'unknown', why: `npm pack --dry-run ended with ${result.exitCode ?? result.signal}` };
  const files = filesOf(text);
  return files ? { kind: 'package', files } : { kind: 'unknown', why: 'npm pack --dry-run --json printed no file list' };
}

/** The paths of `npm pack --json`'s one entry, or null when the text is not that. */
export function filesOf(text: string): Set<string> | null {
  try {
    const entries = JSON.parse(text) as unknown;
    const files = Array.isArray(entries) ? (entries[0] as { files?: unknown } | undefined)?.files : undefined;
    if (!Array.isArray(files)) return null;
    const paths = files
      .map((file) => (file as { path?: unknown }).path)
      .filter((path): path is string => typeof path === 'string');
    return new Set(paths.map((path) => path.replace(/^\.\//, '')));
  } catch {
    return null;
  }
}
