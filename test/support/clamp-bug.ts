// A small real-corpus bug folder, as bench/build-real-bug.ts writes one, for the bench's mutant tests:
// `clamp` returns its argument for no value where the fix returns 0. The snapshot is the buggy
// project, with its node --test suite when one is given; the fix and the meta beside it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileDiff } from '../../src/workspace/unified-diff.ts';

export const CLAMP_BUGGY = 'export function clamp(x, max) {\n  return x > max ? max : x;\n}\n';
export const CLAMP_FIXED = 'export function clamp(x, max) {\n  if (x === undefined) return 0;\n  return x > max ? max : x;\n}\n';

/** The patch from the buggy `lib/clamp.mjs` to `after`. */
export function clampDiff(after: string): string {
  return fileDiff({ path: 'lib/clamp.mjs', before: Buffer.from(CLAMP_BUGGY), after: Buffer.from(after), mode: '100644' });
}

/** The bug folder `demo-01` under `root`; `suite`: the text of `test/clamp.test.mjs` in the snapshot, if any. */
export function clampBugFolder(root: string, suite?: string): string {
  const dir = join(root, 'demo-01');
  const project = join(root, 'project');
  mkdirSync(join(project, 'lib'), { recursive: true });
  writeFileSync(join(project, 'lib/clamp.mjs'), CLAMP_BUGGY);
  if (suite !== undefined) {
    mkdirSync(join(project, 'test'));
    writeFileSync(join(project, 'test/clamp.test.mjs'), `${suite}\n`);
    writeFileSync(join(project, 'package.json'), '{ "name": "clamp", "type": "module" }\n');
  }
  mkdirSync(dir);
  execFileSync('tar', ['-czf', join(dir, 'snapshot.tar.gz'), '-C', project, '.']);
  writeFileSync(join(dir, 'fix.patch'), clampDiff(CLAMP_FIXED));
  writeFileSync(join(dir, 'tests.patch'), '');
  const meta = {
    id: 'demo-01',
    project: 'demo/clamp',
    repository: 'https://github.com/demo/clamp',
    license: 'MIT',
    licenseFile: 'LICENSE',
    fixCommit: 'a'.repeat(40),
    parentCommit: 'b'.repeat(40),
    fixDate: '2026-01-01',
    fixSubject: 'clamp: no value is 0',
    language: 'javascript',
    runner: 'node-test',
    setup: '',
    test: 'node --test',
    failing: ['clamp of nothing'],
    referenceFix: { patch: 'fix.patch', files: ['lib/clamp.mjs'], added: 1, removed: 0 },
    upstreamTests: { patch: 'tests.patch', files: ['test/clamp.test.mjs'] },
    trimmed: { files: [] },
    note: 'a test bug',
  };
  writeFileSync(join(dir, 'meta.json'), JSON.stringify(meta));
  return dir;
}
