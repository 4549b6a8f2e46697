// A run asked for on this machine (`fixloop run`, the library's `run()`): the configuration is the
// repository's own file with the caller's overrides (flags, options) on top, read before anything
// runs, so a bad key fails fast, and again from the clone once it exists. Both reads see the same
// files: the working tree as it is (untracked files git ignores left out), or HEAD with `--head`
// (docs/design.md §1.3). The request is a local one, whatever the goal.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { applyOverrides, type ConfigOverrides } from '../config/apply-overrides.ts';
import { CONFIG_FILE_NAMES, loadConfigFile } from '../config/load-config-file.ts';
import type { FixRequest } from '../core/fix-request.ts';
import { defaultRepoConfig, type RepoConfig } from '../core/repo-config.ts';
import { newRunId } from '../core/run-id.ts';
import { startingFiles } from '../workspace/working-tree-snapshot.ts';

/**
 * The repository's fixloop.yml as it is on disk at `root` (or its defaults when it has none) with
 * `overrides` on top; null: a repository not on this machine yet (a URL), whose defaults apply until
 * its clone is read. Throws ConfigError for a bad file.
 */
export async function repositoryConfig(root: string | null, overrides: ConfigOverrides): Promise<RepoConfig> {
  return applyOverrides(root === null ? defaultRepoConfig() : (await loadConfigFile(root)).config, overrides);
}

/**
 * The configuration a local run from `root` will read from its clone, read before the run: the
 * working tree's file (`workingTree`), else HEAD's. Throws ConfigError for a bad file.
 */
export async function startingConfig(root: string, overrides: ConfigOverrides, workingTree: boolean): Promise<RepoConfig> {
  const files = await startingFiles(root, CONFIG_FILE_NAMES, !workingTree);
  // Mostly the files on disk are the run's: the folder itself is read, as the loader knows to.
  if (workingTree && (await sameAsDisk(root, files))) return repositoryConfig(root, overrides);
  // HEAD's files (or the working tree's without an ignored one) laid out where the loader reads them.
  const view = await mkdtemp(join(tmpdir(), 'fixloop-config-'));
  try {
    for (const [name, text] of files) {
      if (text === null) continue;
      await mkdir(dirname(join(view, name)), { recursive: true });
      await writeFile(join(view, name), text);
    }
    return await repositoryConfig(view, overrides);
  } finally {
    await rm(view, { recursive: true, force: true });
  }
}

async function sameAsDisk(root: string, files: Map<string, string | null>): Promise<boolean> {
  for (const [name, text] of files) if ((await readFile(join(root, name), 'utf8').catch(() => null)) !== text) return false;
  return true;
}

export interface LocalAsk {
  /** A local path or a git URL. */
  source: string;
  /** Base ref whose diff to HEAD is the strongest localization hint. */
  baseRef?: string | null;
  /** What is wrong, in words; without one, the failing tests are the goal and no test is written first. */
  goal?: string | undefined;
  /** The configuration as read before the run (`startingConfig`). */
  config: RepoConfig;
  /** Start from the working tree as it is (default); false: from HEAD (`--head`). */
  workingTree?: boolean;
}

export function localRequest(ask: LocalAsk): FixRequest {
  return {
    runId: newRunId(),
    repository: {
      cloneUrl: ask.source,
      ref: null,
      sha: null,
      baseRef: ask.baseRef ?? null,
      workingTree: ask.workingTree !== false,
    },
    // A library call is a local run, as the CLI's is.
    trigger: { kind: 'cli', number: null, deliveryId: null, actor: null },
    goal: ask.goal?.trim() || 'Make the failing tests pass.',
    writeTestWhenGreen: ask.goal !== undefined,
    hints: [],
    config: ask.config,
  };
}
