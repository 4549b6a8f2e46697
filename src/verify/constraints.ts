// Constraints on a patch: allowed and protected paths, its size, binary changes.
import type { RepoConfig } from '../core/repo-config.ts';
import type { Finding } from '../core/findings.ts';
import type { PathPolicy } from '../workspace/path-policy.ts';
import type { FileChange } from '../core/file-change.ts';
import { posix } from 'node:path';

export function checkConstraints(changes: FileChange[], policy: PathPolicy, constraints: RepoConfig['constraints']): Finding[] {
  const findings: Finding[] = [];
  for (const change of changes) {
    const finding = policy.check(change.path);
    if (finding) findings.push({ ...finding, message: `${finding.message}: ${change.kind}` });
    if (change.symlinkTarget !== undefined && escapes(change.path, change.symlinkTarget)) {
      findings.push({
        kind: 'symlink_escape',
        path: change.path,
        message: `\`${change.path}\` is a symlink to \`${change.symlinkTarget}\`, outside the repository`,
      });
    }
    if (change.binary)
      findings.push({
        kind: 'binary_change',
        path: change.path,
        message: `\`${change.path}\` is a binary file (${change.kind})`,
      });
  }
  if (changes.length > constraints.maxFilesChanged) {
    findings.push({
      kind: 'too_many_files',
      message: `${changes.length} files changed, more than constraints.maxFilesChanged (${constraints.maxFilesChanged})`,
    });
  }
  const lines = changes.reduce((n, c) => n + c.added + c.removed, 0);
  if (lines > constraints.maxLinesChanged) {
    findings.push({
      kind: 'too_many_lines',
      message: `${lines} lines changed, more than constraints.maxLinesChanged (${constraints.maxLinesChanged})`,
    });
  }
  return findings;
}

/** A link that is absolute, or climbs above the repository's root, would let the patch reach outside it. */
function escapes(path: string, target: string): boolean {
  if (posix.isAbsolute(target)) return true;
  const resolved = posix.normalize(posix.join(posix.dirname(path), target));
  return resolved === '..' || resolved.startsWith('../');
}
