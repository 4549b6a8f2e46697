// Files of a checkout written for a piece of work and put back after (rival-search.ts, rival-screen.ts):
// a candidate, the patch or the original in the assessment's checkouts, whatever the work did.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { PatchedVersion } from './patched-versions.ts';
import type { ScreenedVersions } from './rival-screen.ts';

/** `run` with the files as `texts` has them (null: absent), then as the original has them again. */
export async function withTexts<T>(
  dir: string,
  texts: ReadonlyMap<string, string | null>,
  originals: ReadonlyMap<string, string | null>,
  run: () => Promise<T>,
): Promise<T> {
  await writeTexts(dir, texts);
  try {
    return await run();
  } finally {
    await writeTexts(dir, new Map([...texts.keys()].map((path) => [path, originals.get(path) ?? null])));
  }
}

/** Each file as given; null: absent. */
export async function writeTexts(dir: string, texts: ReadonlyMap<string, string | null>): Promise<void> {
  for (const [path, text] of texts) {
    const file = join(dir, path);
    if (text === null) {
      await rm(file, { force: true });
      continue;
    }
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}

/** The screen's versions in `dir`: the original as it stands there, the patch and the candidate written for the work. */
export function screenedVersions(
  dir: string,
  texts: { patched: PatchedVersion['files']; candidate: ReadonlyMap<string, string> },
  originals: ReadonlyMap<string, string | null>,
): ScreenedVersions {
  return {
    original: (work) => work(),
    patched: (work) => withTexts(dir, texts.patched, originals, work),
    candidate: (work) => withTexts(dir, texts.candidate, originals, work),
  };
}
