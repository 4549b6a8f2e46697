// `fixloop run --apply`: a green run's patch put onto the tree the run started from (the working tree
// as it was, or HEAD with --head). Refused, by name, when a file the patch touches changed since the
// run started; nothing is lost then: the patch is written next to the run's other artifacts, and the
// message says where and how to apply it by hand.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { needsReview } from '../core/assessment-level.ts';
import type { RunResult } from '../core/run-result.ts';
import { applyPatchToUserTree } from '../workspace/apply-to-user-tree.ts';
import { EXIT } from './exit-codes.ts';

/** The patch's file in the artifacts when --apply was refused. */
export const REFUSED_PATCH_FILE = 'fix.patch';

/** Applies a green run's patch to `dir`; returns the exit code (`code` unchanged, or usage when refused). */
export async function applyResult(dir: string, result: RunResult, code: number, stderr: (text: string) => void): Promise<number> {
  try {
    await applyPatchToUserTree(dir, result.patch, result.repository.workingTree ?? null);
    stderr(
      needsReview(result)
        ? `fixloop: applied the patch to ${dir}; its tests pass, and the report lists what to review before keeping it\n`
        : `fixloop: applied the verified patch to ${dir}\n`,
    );
    return code;
  } catch (error) {
    const kept = join(result.artifactsDir, REFUSED_PATCH_FILE);
    const written = await writeFile(kept, result.patch).then(
      () => true,
      () => false,
    );
    const where = written
      ? `The patch is kept in ${kept} (apply it with \`git apply ${kept}\` once those files are as the run found them).`
      : `The patch is kept in ${result.artifactsDir} (result.json, \`patch\`).`;
    stderr(`fixloop: --apply refused: ${(error as Error).message}\n${where}\n`);
    return EXIT.usage;
  }
}
