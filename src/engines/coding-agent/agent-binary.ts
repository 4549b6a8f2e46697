// Where a coding agent's executable is, and what of the disk an isolating sandbox must show for it to
// start. The sandbox hides the app's own files, so these folders are chosen narrowly: the agent's
// install, never `/` or a home folder as a whole.
import { readFile, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import type { Mount } from '../../sandbox/sandbox.ts';
import { EngineError } from '../engine-error.ts';
import type { CliAgent } from './cli-agents.ts';
import { findExecutable } from './find-executable.ts';

/** The agent's executable, from FIXLOOP_<AGENT>_BIN (a name or a path) or its usual name, on the app's PATH. */
export async function resolveAgentBinary(agent: CliAgent, environment: Record<string, string | undefined>): Promise<string> {
  const configured = environment[agent.binVariable]?.trim();
  const wanted = configured || agent.defaultBinary;
  const found = await findExecutable(wanted, environment.PATH);
  if (found) return found;
  const where = wanted.includes('/')
    ? `\`${wanted}\` (from ${agent.binVariable}) is not an executable file`
    : `\`${wanted}\` was not found on PATH`;
  throw new EngineError(
    'ENGINE_MISCONFIGURED',
    `the cli engine runs ${agent.name}, but ${where}: install ${agent.name}, set ${agent.binVariable} to its path, or choose another agent with \`cli.agent\` (aider, codex, claude)`,
  );
}

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** The root of the npm package a file belongs to (its code and vendored binaries live there). */
function packageRoot(file: string): string | null {
  const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file);
  return match?.[1] ?? null;
}

/** A Python virtual environment holding `dir` (a pipx/uv tool install) and the Python it was made from. */
async function pythonEnvironment(dir: string): Promise<string[]> {
  const venv = dirname(dir);
  try {
    const cfg = await readFile(join(venv, 'pyvenv.cfg'), 'utf8');
    const home = /^home\s*=\s*(.+)$/m.exec(cfg)?.[1]?.trim();
    return home ? [venv, dirname(home)] : [venv];
  } catch {
    return [];
  }
}

/**
 * Read-only folders an isolating sandbox must show for the agent to start: its own folder, the folder of
 * the file it links to, and the npm package or Python environment around that. Never `/` or a home folder
 * as a whole (the app's own files live there).
 */
export async function binaryMounts(binary: string, environment: Record<string, string | undefined>): Promise<Mount[]> {
  const real = await realpath(binary).catch(() => binary);
  const candidates = [dirname(binary), dirname(real)];
  const pkg = packageRoot(real);
  if (pkg) candidates.push(pkg);
  candidates.push(...(await pythonEnvironment(dirname(real))));
  const homes = new Set([homedir(), environment.HOME].filter((h): h is string => !!h).map((h) => resolve(h)));
  const dirs = [...new Set(candidates.map((d) => resolve(d)))]
    .filter((d) => d !== '/' && !homes.has(d))
    .sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const dir of dirs) if (!kept.some((k) => isUnder(dir, k))) kept.push(dir);
  return kept.map((path) => ({ path }));
}
