// What a fix may change (docs/design.md §3.1.4): allowed globs, protected globs (tests and .github by
// default), and paths that are never acceptable (absolute, `..`, inside .git, workflows).
import picomatch from 'picomatch';
import { ALWAYS_PROTECTED_PATHS, type RepoConfig } from '../core/repo-config.ts';
import type { Finding } from '../core/findings.ts';

export interface PathPolicy {
  /** A finding when `path` (repository-relative, POSIX) may not be changed; null when it may. */
  check(path: string): Finding | null;
}

/** Rejects paths that could leave the repository or reach git's own files, before any glob. */
export function unsafePath(path: string): string | null {
  if (path.length === 0) return 'an empty path';
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) return 'an absolute path';
  if (path.includes('\\')) return 'a path with a backslash';
  const segments = path.split('/');
  if (segments.includes('..')) return 'a path with `..`';
  if (segments[0] === '.git' || segments.includes('.git')) return 'a path inside .git';
  return null;
}

export function createPathPolicy(paths: RepoConfig['paths']): PathPolicy {
  const options = { dot: true };
  const allowed = picomatch(paths.allowed, options);
  const protectedPaths = picomatch([...paths.protected, ...ALWAYS_PROTECTED_PATHS], options);
  return {
    check(path) {
      const unsafe = unsafePath(path);
      if (unsafe) return { kind: 'path_not_allowed', path, message: `\`${path}\` is ${unsafe}` };
      if (protectedPaths(path)) return { kind: 'path_protected', path, message: `\`${path}\` is protected (paths.protected)` };
      if (!allowed(path))
        return { kind: 'path_not_allowed', path, message: `\`${path}\` is outside the allowed paths (paths.allowed)` };
      return null;
    },
  };
}

/** Whether a path is a test file by the configured protected globs (used by localization). */
export function createTestFileMatcher(protectedGlobs: string[]): (path: string) => boolean {
  const testGlobs = protectedGlobs.filter((g) => !g.startsWith('.github'));
  return picomatch(testGlobs.length ? testGlobs : ['**/__never__'], { dot: true });
}
