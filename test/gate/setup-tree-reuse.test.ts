// How the suite's setup reuses a saved dependency tree (src/gate/setup-then-gate.ts, with the cache's
// rule in src/workspace/dependency-cache.ts): a lockfile's tree is linked where the sandbox shows
// trees read-only; a tree kept for its own run only (an install no lockfile decides) is copied
// whatever the sandbox, so node_modules stays a folder of the checkout and its packages' real paths
// lie inside it, as after an install.
import { lstat, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import { createSuiteRunner } from '../../src/gate/setup-then-gate.ts';
import type { CommandResult, Sandbox } from '../../src/sandbox/sandbox.ts';
import { openDependencyCache } from '../../src/workspace/dependency-cache.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function temp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-tree-reuse-'));
  dirs.push(dir);
  return dir;
}

/** A checkout with a manifest, and a lockfile when `locked`. */
async function checkout(locked: boolean): Promise<string> {
  const dir = await temp();
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'p', dependencies: { a: '1.0.0' } }));
  if (locked) await writeFile(join(dir, 'package-lock.json'), '{"lockfileVersion":3}');
  return dir;
}

/** A sandbox whose install writes package `a`, and which counts the installs it ran. */
function installingSandbox(): Sandbox & { installs: number } {
  const sandbox = {
    backend: 'bwrap',
    installs: 0,
    async run(options: { cwd: string }): Promise<CommandResult> {
      sandbox.installs += 1;
      await mkdir(join(options.cwd, 'node_modules', 'a'), { recursive: true });
      await writeFile(join(options.cwd, 'node_modules', 'a', 'index.js'), 'installed');
      return { exitCode: 0, signal: null, timedOut: false, killed: false, output: '', truncatedBytes: 0, durationMs: 1 };
    },
  };
  return sandbox;
}

async function suiteWith(sandbox: Sandbox) {
  const cache = await openDependencyCache(await temp(), 'repo', join(await temp(), 'trees'));
  const config = repoConfigSchema.parse({ test: { command: 'node --test' }, setup: { command: 'npm install' } });
  return createSuiteRunner({
    sandbox,
    config,
    signal: new AbortController().signal,
    setupNetwork: true,
    cache,
    treeReuse: 'link',
  });
}

describe('a saved tree given to the next checkout of a run', () => {
  it('is copied when no lockfile decided it, though the sandbox could show a link read-only', async () => {
    const sandbox = installingSandbox();
    const suite = await suiteWith(sandbox);
    const first = await checkout(false);
    await suite.setup(first);
    const replay = await checkout(false);
    const reused = await suite.setup(replay);
    expect(sandbox.installs).toBe(1);
    expect(reused?.output).toContain('node_modules copied from the tree installed earlier in this run');
    for (const dir of [first, replay]) expect((await lstat(join(dir, 'node_modules'))).isSymbolicLink()).toBe(false);
    expect(await readFile(join(replay, 'node_modules', 'a', 'index.js'), 'utf8')).toBe('installed');
  });

  it('is linked when the lockfile decided it, where the sandbox shows the saved trees read-only', async () => {
    const sandbox = installingSandbox();
    const suite = await suiteWith(sandbox);
    await suite.setup(await checkout(true));
    const replay = await checkout(true);
    const reused = await suite.setup(replay);
    expect(sandbox.installs).toBe(1);
    expect(reused?.output).toContain(
      'node_modules linked (read-only) from the tree installed for the same package.json and lockfile',
    );
    expect((await lstat(join(replay, 'node_modules'))).isSymbolicLink()).toBe(true);
  });
});
