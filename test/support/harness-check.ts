// The harness check on real patches (git's format, as the workspace writes them) applied to files in
// a temp folder, with real Python: each file as [before, after], text or bytes (null: absent).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Finding } from '../../src/core/findings.ts';
import { harnessTampering, testFileCheck } from '../../src/verify/harness-tampering.ts';
import { fileDiff } from '../../src/workspace/unified-diff.ts';

const dirs: string[] = [];

/** Removes the folders the checks made (call from afterAll). */
export async function removeChecked(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

type Content = string | Buffer | null;

export async function checkPatch(
  files: Record<string, [Content, Content]>,
  baselineTestFiles: string[] = [],
): Promise<{ findings: Finding[]; log: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-tamper-'));
  dirs.push(dir);
  const patch: string[] = [];
  const bytes = (content: Content) => (content === null ? null : Buffer.from(content));
  for (const [path, [before, after]] of Object.entries(files)) {
    if (after !== null) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), after);
    }
    patch.push(fileDiff({ path, before: bytes(before), after: bytes(after), mode: '100644' }));
  }
  const log: string[] = [];
  const findings = await harnessTampering({
    dir,
    patch: patch.join(''),
    isTestFile: testFileCheck([], new Set(baselineTestFiles)),
    log: (line) => log.push(line),
  });
  return { findings, log };
}
