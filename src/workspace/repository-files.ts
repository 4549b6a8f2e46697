// The repository's own files, as the assessment and the judge list them: for the failing tests' files
// and the modules they import (src/assess/entry-points.ts), the test files a probe tells its callers
// by, and the files a fixed test the runner names with no file may be in
// (src/verify/changed-expectations.ts).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Files and folders looked at when listing the repository. */
const MAX_FILES_LOOKED_AT = 5000;
/** Folders that are not the repository's own code. */
const NOT_THE_REPOSITORY = new Set(['node_modules', '.git', '.fixloop-probe', '__pycache__', '.venv', 'venv', '.tox']);

/** The repository's files, relative and with `/`, its dependencies' folders left out (at most a few thousand files looked at). */
export async function repositoryFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const folders = [''];
  let looked = 0;
  while (folders.length > 0 && looked < MAX_FILES_LOOKED_AT) {
    const folder = folders.shift() ?? '';
    for (const entry of await readdir(join(dir, folder), { withFileTypes: true }).catch(() => [])) {
      looked++;
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory() && !NOT_THE_REPOSITORY.has(entry.name)) folders.push(path);
      else if (entry.isFile()) found.push(path);
    }
  }
  return found;
}
