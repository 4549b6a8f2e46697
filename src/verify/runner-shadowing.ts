// Shadowing the runner (docs/design.md §3.2.2): a module or package the patch adds where the runner looks
// first, under a name the runner itself loads (`pytest/` at the top of a repository run with
// `python -m pytest`), runs in the runner's place. The names are asked of the runner, not listed: its
// descriptor gives a command, run in the sandbox as the gate runs the tests, in an empty folder, on
// the pristine checkout's side of the patch. Only when the patch adds such a top-level name that the
// repository did not have is the runner asked, so a run that adds none pays nothing.
import { lstat, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileChange } from '../core/file-change.ts';
import type { Finding } from '../core/findings.ts';
import { RUNNERS, runnerOf } from '../runners/registry.ts';
import { runnerFileFindings } from './runner-files.ts';

export interface ShadowInput {
  changes: FileChange[];
  /** The pristine checkout, the patch not applied: a top-level name it already has is the repository's own. */
  dir: string;
  testCommand: string;
  /** Runs a command in `cwd` as the gate runs the tests (the sandbox, the environment), giving its output. */
  run: (cwd: string, command: string) => Promise<string>;
  /** A folder of the run's own, for the empty folder the runner is asked in. */
  scratchDir: string;
  log: (line: string) => void;
}

export async function shadowFindings(input: ShadowInput): Promise<Finding[]> {
  const direct = runnerOf(input.testCommand);
  const runners = (direct ? [direct] : RUNNERS).flatMap((r) =>
    r.judged?.loadedNames ? [{ id: r.id, names: r.judged.loadedNames }] : [],
  );
  const findings: Finding[] = [];
  for (const { id, names } of runners) {
    const added = await addedNames(input, (path) => names.nameOf(path));
    const command = names.command(input.testCommand);
    if (added.length === 0 || command === null) continue;
    const empty = await mkdtemp(join(input.scratchDir, 'loaded-names-'));
    try {
      const loaded = new Set(names.parse(await input.run(empty, command)) ?? []);
      if (loaded.size === 0) input.log(`replay: could not ask ${id} which modules it loads; only its known files are refused`);
      for (const [path, name] of added) {
        if (loaded.has(name))
          findings.push({
            kind: 'runner_changed',
            path,
            message: `\`${path}\` shadows \`${name}\`, which the test runner loads (${id} imports it before any test): a fix may not add it`,
          });
      }
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  }
  return findings;
}

/** Each created file with the top-level import name it takes, when that name is new to the repository and no other rule refuses the file. */
async function addedNames(input: ShadowInput, nameOf: (path: string) => string | null): Promise<Array<[string, string]>> {
  const added: Array<[string, string]> = [];
  for (const change of input.changes) {
    if (change.kind !== 'created' || runnerFileFindings([change], [], new Set()).length > 0) continue;
    const name = nameOf(change.path);
    const top = change.path.split('/')[0] ?? '';
    if (name !== null && (!change.path.includes('/') || !(await exists(join(input.dir, top))))) added.push([change.path, name]);
  }
  return added;
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}
