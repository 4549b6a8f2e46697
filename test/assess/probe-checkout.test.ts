import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeCheckout, runWithin, type ProbeCheckout, type ProbeRun } from '../../src/assess/probe-checkout.ts';
import type { SuiteRunner } from '../../src/gate/setup-then-gate.ts';
import type { VersionPlan } from '../../src/assess/probe-plan.ts';

const plan = { files: new Map() } as unknown as VersionPlan;

/** A checkout whose one run took the time `spent` says and was handed `timeouts`. */
function checkout(spent: ProbeRun['spent'], timeouts: number[]): ProbeCheckout {
  return {
    dir: '/nowhere',
    async run(_plan, _label, timeoutMs): Promise<ProbeRun> {
      timeouts.push(timeoutMs);
      return { records: [], functions: new Map(), gate: null, spent };
    },
    writePlain: () => Promise.reject(new Error('this test writes no plain version')),
    withoutTests: () => Promise.reject(new Error('this test hides no test')),
    withoutFiles: () => Promise.reject(new Error('this test moves no file')),
    generating: () => 'all',
    stopGenerating: () => Promise.reject(new Error('this test turns nothing off')),
  };
}

describe('one probed run within what is left of the budget', () => {
  it('says where its time went: writing the version, the suite, reading the records', async () => {
    const lines: string[] = [];
    const timeouts: number[] = [];
    const spent = { writeMs: 1200, suiteMs: 88_300, readMs: 400 };
    await runWithin(
      checkout(spent, timeouts),
      plan,
      'patched',
      () => 120_000,
      (line) => lines.push(line),
    );
    expect(timeouts).toEqual([120_000]);
    expect(lines).toEqual([
      'assessment: patched',
      'assessment: patched: 1.2 s writing the probed version, 88.3 s the suite, 0.4 s reading 0 records',
    ]);
  });

  it('runs nothing when less than a second is left', async () => {
    const timeouts: number[] = [];
    const result = await runWithin(
      checkout({ writeMs: 0, suiteMs: 0, readMs: 0 }, timeouts),
      plan,
      'original',
      () => 999,
      () => undefined,
    );
    expect(result).toEqual({ run: null, exhausted: true });
    expect(timeouts).toEqual([]);
  });
});

describe('the checkout without its tests, as a program is shipped', () => {
  it('moves the test files and the git folder out while the work runs, and puts them back, even when it fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'probe-checkout-'));
    try {
      await mkdir(join(dir, 'test'), { recursive: true });
      await mkdir(join(dir, '.git'));
      await writeFile(join(dir, 'test/a.test.js'), 'expected');
      await writeFile(join(dir, 'index.js'), 'code');
      const probe = probeCheckout(dir, {} as SuiteRunner, ['test/a.test.js', 'test/gone.test.js']);
      const seen = await probe.withoutTests(async () => [
        existsSync(join(dir, 'test/a.test.js')),
        existsSync(join(dir, '.git')),
        existsSync(join(dir, 'index.js')),
      ]);
      expect(seen).toEqual([false, false, true]);
      expect(await readFile(join(dir, 'test/a.test.js'), 'utf8')).toBe('expected');
      await expect(
        probe.withoutTests(async () => {
          throw new Error('the plain process failed');
        }),
      ).rejects.toThrow('the plain process failed');
      expect([existsSync(join(dir, 'test/a.test.js')), existsSync(join(dir, '.git')), existsSync(`${dir}-hidden`)]).toEqual([
        true,
        true,
        false,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('sets aside what the runs wrote since the setup (a cache under node_modules, a file beside the code), and puts it back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'probe-checkout-'));
    try {
      await mkdir(join(dir, 'node_modules/dep'), { recursive: true });
      await writeFile(join(dir, 'node_modules/dep/index.js'), 'installed');
      await writeFile(join(dir, 'index.js'), 'code');
      // What the clone and the setup made is older than the checkout's own start.
      const before = new Date(Date.now() - 60_000);
      for (const file of ['node_modules/dep/index.js', 'index.js']) await utimes(join(dir, file), before, before);
      const probe = probeCheckout(dir, {} as SuiteRunner, []);
      await mkdir(join(dir, 'node_modules/.cache/rules'), { recursive: true });
      await writeFile(join(dir, 'node_modules/.cache/rules/grammar.json'), '{"sum":true}');
      await writeFile(join(dir, 'state.json'), '{}');
      // A run's writes come seconds after the setup; a file's time is the kernel's coarse clock's.
      const later = new Date(Date.now() + 5000);
      for (const file of ['node_modules/.cache/rules/grammar.json', 'state.json']) await utimes(join(dir, file), later, later);
      const seen = await probe.withoutTests(async () =>
        ['node_modules/.cache/rules/grammar.json', 'state.json', 'node_modules/dep/index.js', 'index.js'].map((f) =>
          existsSync(join(dir, f)),
        ),
      );
      expect(seen).toEqual([false, false, true, true]);
      expect(await readFile(join(dir, 'node_modules/.cache/rules/grammar.json'), 'utf8')).toBe('{"sum":true}');
      expect(await readFile(join(dir, 'state.json'), 'utf8')).toBe('{}');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
