// The python3 that fixloop's own helper scripts run on (the judge's syntax checks, the repair
// engine's Python candidates), outside any sandbox: the one the PATH finds, followed past a pyenv
// shim to the interpreter it would start (its version selection read once, without starting pyenv).
// The shim's detour is about twenty bash processes, ~0.35 s before every helper's Python starts.
import { bindGuardFrom } from './bind-guard.ts';
import { fileToStart } from './toolchains.ts';

const known = new Map<string, string>();

/** The file to start for `python3` with this PATH from this folder (`python3` when the PATH has none: the spawn then says so). */
export function ownPython(path = process.env.PATH ?? '/usr/bin:/bin', cwd = process.cwd()): string {
  const key = `${path}\0${cwd}`;
  let file = known.get(key);
  if (!file) {
    const env = { PATH: path };
    file = fileToStart('python3', { path, env, guard: bindGuardFrom(env), cwd }) ?? 'python3';
    known.set(key, file);
  }
  return file;
}
