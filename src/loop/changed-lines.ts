// Lines changed between a base ref and the commit being fixed: the strongest localization hint
// (a failing pull request's own diff). Read from the trusted bare mirror, never from the workspace.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { LocalizationHint } from '../engines/engine.ts';

const run = promisify(execFile);

/** Parses `git diff -U0` output into the new-side line numbers of each file. */
export function parseChangedLines(diff: string): LocalizationHint[] {
  const hints = new Map<string, number[]>();
  let file: string | null = null;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      const path = line.slice(4).trim();
      file = path === '/dev/null' ? null : path.replace(/^b\//, '');
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && file) {
      const start = Number(hunk[1]);
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      // A pure deletion (count 0) points at the line after which text was removed.
      const lines = count === 0 ? [Math.max(1, start)] : Array.from({ length: count }, (_, i) => start + i);
      hints.set(file, [...(hints.get(file) ?? []), ...lines]);
    }
  }
  return [...hints].map(([f, lines]) => ({ file: f, lines: [...new Set(lines)].sort((a, b) => a - b) }));
}

export async function changedLinesSince(mirror: string, baseRef: string, headSha: string): Promise<LocalizationHint[]> {
  const { stdout } = await run(
    'git',
    [
      '-c',
      'core.hooksPath=/dev/null',
      '-c',
      'core.fsmonitor=false',
      `--git-dir=${mirror}`,
      'diff',
      '--no-ext-diff',
      '--no-textconv',
      '--no-color',
      '-U0',
      `${baseRef}...${headSha}`,
    ],
    {
      env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return parseChangedLines(stdout);
}
