// The `script` engine: a user's command edits the workspace once per attempt.
// It gets the attempt number and the failing tests; the loop detects and checks what it changed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AttemptContext, type Engine, type EngineOutcome } from './engine.ts';
import { ZERO_COST } from '../core/cost.ts';
import { EngineError } from './engine-error.ts';

export function createScriptEngine(): Engine {
  return {
    name: 'script',
    async attempt(ctx: AttemptContext): Promise<EngineOutcome> {
      const command = ctx.config.script.command;
      if (!command)
        throw new EngineError('ENGINE_MISCONFIGURED', 'the script engine needs a command: pass --script or set script.command');
      // The failures file lives outside the workspace so that it is never taken for a change.
      const dir = await mkdtemp(join(tmpdir(), 'fixloop-script-'));
      try {
        const failuresFile = join(dir, 'failures.json');
        const failing = ctx.lastGate.report.tests
          .filter((t) => t.status === 'failed')
          .map((t) => ({ id: t.id, name: t.name, file: t.file ?? null, message: t.message ?? null, stack: t.stack ?? null }));
        await writeFile(failuresFile, JSON.stringify({ attempt: ctx.attempt, goal: ctx.goal, failing }, null, 2));
        const timeoutMs = Math.max(1000, Math.min(ctx.config.script.timeout * 1000, ctx.deadline - Date.now()));
        ctx.log(`script: ${command}`);
        const result = await ctx.sandbox.run({
          command,
          cwd: ctx.workspace.root,
          timeoutMs,
          signal: ctx.signal,
          mounts: [{ path: dir }],
          env: {
            ...ctx.config.env,
            FIXLOOP_ATTEMPT: String(ctx.attempt),
            FIXLOOP_MAX_ATTEMPTS: String(ctx.maxAttempts),
            FIXLOOP_FAILURES: failuresFile,
          },
          onOutput: (chunk) => ctx.log(chunk.replace(/\n$/, '')),
        });
        const how = result.timedOut
          ? `timed out after ${Math.round(timeoutMs / 1000)} s`
          : result.exitCode === 0
            ? 'exited 0'
            : `exited ${result.exitCode ?? `on signal ${result.signal}`}`;
        return { summary: `script ${how}`, cost: ZERO_COST, gaveUp: false };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
