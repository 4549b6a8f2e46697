// The library is an entry point, like the CLI: it may import every stage, and no stage may import it
// (eslint.config.js adds `library` to the folders each stage is refused).
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function lintProbe(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the library in the floor plan', () => {
  it('is imported by no stage, at any depth', async () => {
    const fromLoop = await lintProbe(
      'src/loop/probe.ts',
      "import type { RunOptions } from '../library/run-options.ts';\nexport type T = RunOptions;\n",
    );
    expect(fromLoop.some((m) => m.startsWith('no-restricted-imports') && m.includes('A stage imports only earlier ones'))).toBe(
      true,
    );
    const fromEngines = await lintProbe(
      'src/engines/agent/probe.ts',
      "import type { RunOutcome } from '../../library/run-outcome.ts';\nexport type T = RunOutcome;\n",
    );
    expect(fromEngines.some((m) => m.startsWith('no-restricted-imports'))).toBe(true);
  });

  it('imports any stage itself', async () => {
    expect(
      await lintProbe(
        'src/library/probe.ts',
        "import type { RunFixDeps } from '../loop/run-fix.ts';\nexport type T = RunFixDeps;\n",
      ),
    ).toEqual([]);
  });
});
