// The checks of a check run (docs/design.md §1.5), each run as the gate runs the suite: in the sandbox,
// within its time, its exit code deciding; its output read per diagnostic by the check tools it runs
// (src/checks/), found from the command and the package.json scripts it starts.
import type { CheckRun } from '../core/check-result.ts';
import { checkToolsOf, parseCheckOutput } from '../checks/registry.ts';
import type { Mount, Sandbox } from '../sandbox/sandbox.ts';
import { packageScripts } from '../runners/package-scripts.ts';

export interface ChecksOptions {
  commands: readonly string[];
  cwd: string;
  timeoutMs: number;
  env?: Record<string, string>;
  mounts?: Mount[];
  tmpDir?: string;
  signal?: AbortSignal;
}

/** Each check in turn (all of them: each one's diagnostics count), in `cwd`. */
export async function runChecks(sandbox: Sandbox, options: ChecksOptions): Promise<CheckRun[]> {
  const scripts = await packageScripts(options.cwd);
  const runs: CheckRun[] = [];
  for (const command of options.commands) {
    const tools = checkToolsOf(command, scripts);
    const result = await sandbox.run({
      command,
      cwd: options.cwd,
      timeoutMs: options.timeoutMs,
      ...(options.env ? { env: options.env } : {}),
      ...(options.mounts ? { mounts: options.mounts } : {}),
      ...(options.tmpDir ? { tmpDir: options.tmpDir } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const passed = result.exitCode === 0 && !result.timedOut;
    const diagnostics = passed ? [] : parseCheckOutput(result.output, options.cwd, tools);
    runs.push({
      command,
      tool: tools[0]?.id ?? diagnostics[0]?.tool ?? null,
      passed,
      ...(passed ? {} : { exitCode: result.exitCode, ...(result.timedOut ? { timedOut: true } : {}) }),
      diagnostics,
      parsed: passed || diagnostics.length > 0,
      output: result.output,
      durationMs: result.durationMs,
    });
  }
  return runs;
}
