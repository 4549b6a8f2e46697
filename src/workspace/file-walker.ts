// Lists a work tree's files without git: skips .git, the repository's ignored paths (root
// .gitignore, read once at creation while the tree is still trusted) and well-known generated dirs.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { RUNNERS } from '../runners/registry.ts';

/**
 * Generated or installed paths that are never a fix's change, whatever .gitignore says: these, and
 * the folders each test runner writes while tests run (its descriptor's, src/runners/).
 */
export const BUILT_IN_IGNORES = [
  '.git/',
  'node_modules/',
  '__pycache__/',
  '*.pyc',
  '.mypy_cache/',
  '.ruff_cache/',
  '.venv/',
  'venv/',
  'coverage/',
  '.nyc_output/',
  '.fixloop/',
  '.cache/',
  '.hypothesis/',
  ...RUNNERS.flatMap((r) => r.configuration.generatedFolders),
];

export function createIgnore(gitignore: string | null): Ignore {
  const ig = ignore().add(BUILT_IN_IGNORES);
  if (gitignore) ig.add(gitignore);
  return ig;
}

/** Files (and symlinks, not followed) under root, as sorted POSIX paths. */
export async function walkFiles(root: string, ig: Ignore): Promise<string[]> {
  const out: string[] = [];
  const visit = async (relDir: string) => {
    const entries = await readdir(join(root, relDir), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!ig.ignores(`${rel}/`)) await visit(rel);
      } else if (entry.isFile() && !ig.ignores(rel)) {
        out.push(rel);
      } else if (entry.isSymbolicLink() && !ig.ignores(rel) && !ig.ignores(`${rel}/`)) {
        out.push(rel);
      }
    }
  };
  await visit('');
  return out.sort();
}
