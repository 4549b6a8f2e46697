// Which Node, npm and Python a repository's commands run on, and their versions: asked of the tools
// themselves (`<tool> --version`) through the sandbox, in the repository's checkout, so the answer
// comes from the same PATH, variables (pyenv's version selection, a virtualenv) and folder as the
// tests', on every backend (the docker image's own tools included).
import type { Sandbox } from './sandbox.ts';

/** The tools whose versions a report names. (pnpm and yarn are left out: corepack may fetch them.) */
export const VERSIONED_TOOLS = ['node', 'npm', 'python3', 'python'] as const;

export interface ToolVersion {
  /** As commands name it: `node`. */
  name: string;
  /** Where the sandbox's PATH finds it: `/usr/bin/node`. */
  path: string;
  /** `v20.20.2`, `11.19.1`, `3.11.7`; null when the tool printed no version (a pyenv shim whose version is not installed). */
  version: string | null;
  /** The first line it printed: the reason when there is no version. */
  said: string;
}

// One sandboxed command for all of them (each costs a process tree, and with bwrap namespaces), the
// tools asked side by side: npm and pyenv's shims take a while to start. One short line each, written
// at once, so the lines do not mix.
const SCRIPT = `for t in ${VERSIONED_TOOLS.join(' ')}; do (p=$(command -v "$t") || exit 0; v=$("$t" --version 2>&1 </dev/null | head -n 1); printf '%s\\t%s\\t%s\\n' "$t" "$p" "$v") & done; wait`;

/** `v20.20.2` from `v20.20.2`, `3.11.7` from `Python 3.11.7`; null when the line holds no version. */
export function versionIn(line: string): string | null {
  return /(?:^|\s)(v?\d+\.\d+(?:\.\d+)?(?:[-+.]?[0-9A-Za-z.-]*)?)(?:\s|$)/.exec(line.trim())?.[1] ?? null;
}

export function parseToolVersions(output: string): ToolVersion[] {
  const known = new Set<string>(VERSIONED_TOOLS);
  return output.split('\n').flatMap((line) => {
    const [name = '', path = '', said = ''] = line.split('\t');
    return known.has(name) && path.startsWith('/') ? [{ name, path, version: versionIn(said), said: said.trim() }] : [];
  });
}

/** The versioned tools found on the sandbox's PATH in `cwd`; none when the command itself failed to run. */
export async function measureToolVersions(sandbox: Sandbox, cwd: string, signal?: AbortSignal): Promise<ToolVersion[]> {
  try {
    const result = await sandbox.run({ command: SCRIPT, cwd, timeoutMs: 60_000, maxOutputBytes: 16_384, ...(signal ? { signal } : {}) });
    return result.timedOut || result.killed ? [] : parseToolVersions(result.output);
  } catch {
    // A sandbox that cannot run anything fails the setup or the baseline, with its cause, right after.
    return [];
  }
}
