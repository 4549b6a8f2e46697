// Is a plausible patch of a written bug correct? Its hidden tests decide: the patch applied to the
// project, the hidden tests copied in beside the visible ones, and the bug's test command passing.
// A patch that does not apply is not correct. run.ts and overfit-written.ts judge with it.
import { rmSync } from 'node:fs';
import type { Bug } from './corpus.ts';
import { applyPatch } from './real-corpus.ts';
import { materialize, shell, writeFiles } from './workdir.ts';

export async function passesHiddenTests(bug: Bug, patch: string, timeoutMs?: number): Promise<boolean> {
  const dir = materialize(bug.project, 'hidden');
  try {
    applyPatch(dir, patch);
    writeFiles(dir, bug.hidden);
    return (await shell(bug.test, dir, timeoutMs)).code === 0;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
