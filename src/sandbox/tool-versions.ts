// Which Node, npm and Python a repository's commands run on, and their versions: asked of the tools
// themselves (`<tool> --version`) through the sandbox, in the repository's checkout, so the answer
// comes from the same PATH, variables (pyenv's version selection, a virtualenv) and folder as the
// tests', on every backend (the docker image's own tools included).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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

type VersionedTool = (typeof VERSIONED_TOOLS)[number];

const NODE_TOOLS: VersionedTool[] = ['node', 'npm'];
const PYTHON_TOOLS: VersionedTool[] = ['python3', 'python'];
/** Files at a checkout's root that say which language's tools its commands use. */
const NODE_FILES = ['package.json', '.nvmrc', '.node-version'];
const PYTHON_FILES = ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'Pipfile', 'tox.ini', '.python-version'];
// The interpreters and package managers only: a runner named bare (`jest`, `pytest`) says nothing a
// project's files do not (the registry, not this file, knows runners).
const NODE_WORDS = /(?:^|[\s/;&|(])(?:node|npm|npx|pnpm|yarn|tsx|ts-node)(?:$|[\s;&|)])/;
const PYTHON_WORDS = /(?:^|[\s/;&|(])(?:python[\d.]*|pip[\d.]*|tox|nox|uv|poetry|pipenv)(?:$|[\s;&|)])/;

/**
 * The tools worth asking for this checkout and these commands: Node's for a Node project, Python's for
 * a Python one, all four when neither shows. Each answer costs a start of the tool (pyenv's shims take
 * seconds on a loaded machine), and the report has nothing to say about Python in a Node project.
 */
export function toolsFor(root: string, commands: string[]): VersionedTool[] {
  const has = (files: string[]) => files.some((f) => existsSync(join(root, f)));
  const says = (words: RegExp) => commands.some((c) => words.test(c));
  const node = has(NODE_FILES) || says(NODE_WORDS);
  const python = has(PYTHON_FILES) || says(PYTHON_WORDS);
  if (node === python) return node ? [...NODE_TOOLS, ...PYTHON_TOOLS] : [...VERSIONED_TOOLS];
  return node ? NODE_TOOLS : PYTHON_TOOLS;
}

/**
 * npm's version as `npm --version` prints it, from the package.json of the npm the PATH finds (npm's
 * own answer is that file's field): an npm start costs ~0.3 s of CPU, on every run of a Node project.
 * Prints nothing where the file beside it is not npm's (a wrapper, a shim): npm is then asked.
 */
const NPM_OWN_VERSION = `d=$(dirname "$(readlink -f "$p" 2>/dev/null)")/..; grep -q '^  "name": "npm",$' "$d/package.json" 2>/dev/null && sed -n 's/^  "version": "\\([^"]*\\)",$/\\1/p' "$d/package.json"`;

// One sandboxed command for all of them (each costs a process tree, and with bwrap namespaces), the
// tools asked side by side: npm and pyenv's shims take a while to start. One short line each, written
// at once, so the lines do not mix.
const script = (tools: readonly string[]) =>
  `for t in ${tools.join(' ')}; do (p=$(command -v "$t") || exit 0; v=; [ "$t" = npm ] && v=$(${NPM_OWN_VERSION}); [ -n "$v" ] || v=$("$t" --version 2>&1 </dev/null | head -n 1); printf '%s\\t%s\\t%s\\n' "$t" "$p" "$v") & done; wait`;

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

/** `tools` (all versioned tools unless given) as the sandbox's PATH finds them in `cwd`; none when the command itself failed to run. */
export async function measureToolVersions(
  sandbox: Sandbox,
  cwd: string,
  signal?: AbortSignal,
  tools: readonly VersionedTool[] = VERSIONED_TOOLS,
): Promise<ToolVersion[]> {
  try {
    const result = await sandbox.run({
      command: script(tools),
      cwd,
      timeoutMs: 60_000,
      maxOutputBytes: 16_384,
      ...(signal ? { signal } : {}),
    });
    return result.timedOut || result.killed ? [] : parseToolVersions(result.output);
  } catch {
    // A sandbox that cannot run anything fails the setup or the baseline, with its cause, right after.
    return [];
  }
}
