// Before a test command runs, the caches its runner writes beside the operator's toolchain on an
// ordinary start (TestRunner.warmToolchain): made once, outside the sandbox, where the sandbox
// shares the host's toolchain (bwrap, process), for the toolchain the sandbox itself resolves.
// Docker's commands run on the image's own.
import type { Sandbox } from '../sandbox/sandbox.ts';
import { bindGuardFrom } from '../sandbox/bind-guard.ts';
import { fileToStart } from '../sandbox/toolchains.ts';
import { userPath } from '../sandbox/user-path.ts';
import { packageScriptOf, runnerOf } from '../runners/registry.ts';
import { packageScriptsNow } from '../runners/package-scripts.ts';
import type { ResolveProgram } from '../runners/runner.ts';

const HOST_TOOLCHAIN_BACKENDS = new Set(['bwrap', 'process']);

export async function warmRunnerToolchain(sandbox: Sandbox, command: string, cwd: string, signal?: AbortSignal): Promise<void> {
  if (!HOST_TOOLCHAIN_BACKENDS.has(sandbox.backend)) return;
  const scripts = packageScriptsNow(cwd);
  const runner = runnerOf(command, scripts);
  if (!runner?.warmToolchain) return;
  const started = packageScriptOf(command, scripts) ?? command;
  await runner.warmToolchain(started, cwd, programResolver(sandbox, started, cwd), signal);
}

/**
 * The file the sandbox starts for a program: its own view of the operator's toolchains where it has
 * one (a pyenv shim followed to its interpreter, a venv's python kept as the venv's), else the PATH.
 */
function programResolver(sandbox: Sandbox, command: string, cwd: string): ResolveProgram {
  return (program) => {
    const shown = sandbox.describe?.([command]).toolchains.find((t) => t.name === program);
    if (shown) return shown.kind === 'pyenv' ? shown.realPath : shown.executable;
    const env = { ...process.env, PATH: userPath(process.env.PATH) };
    return fileToStart(program, { path: env.PATH, env, guard: bindGuardFrom(env), cwd });
  };
}
