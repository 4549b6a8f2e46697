// The `fixers` engine (docs/engines.md): for a check run (`checks`), the repository's own lint and
// format fixers, run in the sandbox like any command, at no cost. First in the cascade a check run
// gets by default. Its patch is judged like any engine's: replayed, the check passing, the tests not
// regressing, nothing protected touched. It gives up when no fixer applies, when the fixers change
// nothing, or when it already ran on the state it is given (what is left is not a fixer's to fix).
import { createHash } from 'node:crypto';
import { ZERO_COST } from '../../core/cost.ts';
import type { AttemptContext, Engine, EngineOutcome } from '../engine.ts';
import { findFixers } from './find-fixers.ts';

const gaveUp = (summary: string, stats: Record<string, number> = {}): EngineOutcome => ({
  summary,
  cost: ZERO_COST,
  gaveUp: true,
  stats,
});

async function stateOf(ctx: AttemptContext): Promise<string> {
  return createHash('sha256')
    .update(await ctx.workspace.diff())
    .digest('hex');
}

export function createFixersEngine(): Engine {
  /** The state the fixers last left: run again on it, they would change nothing. */
  let left: string | null = null;
  return {
    name: 'fixers',
    async attempt(ctx: AttemptContext): Promise<EngineOutcome> {
      if (!ctx.checks || ctx.config.checks.length === 0)
        return gaveUp('no check to fix: the fixers answer a failing check (`--check`, `checks:`), not failing tests');
      const failing = (ctx.lastGate.checks ?? []).filter((c) => !c.passed);
      if (failing.length === 0) return gaveUp('every check passes: only tests regressed, which no fixer fixes');
      const before = await stateOf(ctx);
      if (before === left)
        return gaveUp(
          `the fixers already ran on this code; what ${failing.map((c) => `\`${c.command}\``).join(', ')} still reports is not theirs to fix`,
        );
      const { commands, missing } = await findFixers(ctx);
      for (const why of missing) ctx.log(`fixers: ${why}`);
      if (commands.length === 0) return gaveUp(`no fixer for the failing check(s): ${missing.join('; ') || 'none known'}`);
      const ran: string[] = [];
      for (const { command, why } of commands) {
        if (ctx.signal.aborted) break;
        ctx.log(`fixers: ${command} (${why})`);
        const result = await ctx.sandbox.run({
          command,
          cwd: ctx.workspace.root,
          timeoutMs: Math.max(1000, Math.min(ctx.config.test.timeout * 1000, ctx.deadline - Date.now())),
          env: ctx.config.env,
          signal: ctx.signal,
        });
        ctx.log(
          `fixers: \`${command}\` ${result.timedOut ? 'timed out' : `exited ${result.exitCode ?? 'on a signal'}`}${result.output.trim() ? `\n${result.output.trimEnd()}` : ''}`,
        );
        ran.push(`\`${command}\``);
      }
      const after = await stateOf(ctx);
      left = after;
      const stats = { fixers: ran.length };
      if (after === before)
        return gaveUp(`the fixers changed nothing (${ran.join(', ')}): what the check reports is not theirs to fix`, stats);
      const files = (await ctx.workspace.changes()).length;
      return { summary: `ran ${ran.join(', ')}: ${files} file(s) changed`, cost: ZERO_COST, gaveUp: false, stats };
    },
  };
}
