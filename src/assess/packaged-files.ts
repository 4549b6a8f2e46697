// What a published project ships, as its language's own packaging tool says (ProbeLanguage's
// `outside.shipped`: npm's packing, a Python wheel's build): the look from outside the runner runs a
// published project without the rest of its checkout, so a fix left out of what users install is not
// there either. The tool runs in the tests' sandbox, as the operator's; fixloop keeps no rule of its
// own about which files a distribution holds.
import { copyFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import type { ShippedFiles } from './probe-language.ts';

/** The tool's time to list the files: npm reads the tree; a wheel's build copies the sources. */
const LIST_MS = 60_000;
const LIST_FILE = 'shipped-files.json';

export type PackagedFiles =
  /** `built`: the project's build ran first (ShippedFiles.builds), and wrote what it ships into the checkout. */
  | { kind: 'package'; files: ReadonlySet<string>; built: boolean }
  /** Not published: no package.json (or one marked private), no pyproject.toml or setup.py. */
  | { kind: 'not-a-package' }
  /** The tool could not list them (not on the PATH, a build that failed): `why` is for the log. */
  | { kind: 'unknown'; why: string };

/**
 * The files of the project at `dir`, relative and `/`-separated, as `shipped` lists them, its command
 * run in `folder` (the probe's folder, relative to `dir`).
 */
export async function packagedFiles(
  dir: string,
  shipped: ShippedFiles,
  run: { suite: Pick<SuiteRunner, 'plain' | 'testCommand'>; folder: string; timeoutMs: number },
): Promise<PackagedFiles> {
  if (!(await shipped.published(dir))) return { kind: 'not-a-package' };
  for (const { from, name } of shipped.files) await copyFile(from, join(dir, run.folder, name));
  const list = `${run.folder}/${LIST_FILE}`;
  await rm(join(dir, list), { force: true });
  const build = (await shipped.builds?.(dir)) ?? false;
  const command = shipped.command({ testCommand: run.suite.testCommand, folder: run.folder, list, build });
  const result = await run.suite.plain(dir, command, Math.min(LIST_MS, run.timeoutMs));
  const text = await readFile(join(dir, list), 'utf8').catch(() => '');
  await rm(join(dir, list), { force: true });
  if (result.exitCode !== 0) return { kind: 'unknown', why: `\`${command}\` ended with ${result.exitCode ?? result.signal}` };
  const files = shipped.paths(text);
  return files ? { kind: 'package', files, built: build } : { kind: 'unknown', why: `\`${command}\` wrote no file list` };
}
