// The command's entry as users start it: its version, and from a Node older than 24 (a global install,
// `npx --prefix`, the path from another folder), which hands over to the project's own Node 24.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.ts';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
/** The machine's own Node (Debian's, 20 here and on CI), not the project's. */
const SYSTEM_NODE = '/usr/bin/node';
const systemMajor = existsSync(SYSTEM_NODE)
  ? Number(execFileSync(SYSTEM_NODE, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }))
  : null;

describe('the fixloop command’s entry', () => {
  it('prints its version', async () => {
    for (const flag of ['--version', '-V']) {
      const run = await runCli([flag], { cwd: tmpdir() });
      expect(run).toMatchObject({ code: 0, stdout: `${version}\n` });
    }
  });

  it("keeps Node's compile cache in fixloop's own cache folder, unless Node is told otherwise", async () => {
    const home = mkdtempSync(join(tmpdir(), 'fixloop-compile-cache-'));
    try {
      const { NODE_COMPILE_CACHE: _given, FIXLOOP_CACHE_DIR: _cache, ...env } = process.env as Record<string, string>;
      const cache = join(home, 'fixloop', 'node-compile-cache');
      expect(await runCli(['--version'], { cwd: tmpdir(), env: { ...env, XDG_CACHE_HOME: home }, exactEnv: true })).toMatchObject(
        { code: 0 },
      );
      expect(readdirSync(cache, { recursive: true }).length).toBeGreaterThan(0);
      rmSync(cache, { recursive: true });
      expect(
        await runCli(['--version'], {
          cwd: tmpdir(),
          env: { ...env, XDG_CACHE_HOME: home, NODE_DISABLE_COMPILE_CACHE: '1' },
          exactEnv: true,
        }),
      ).toMatchObject({ code: 0 });
      expect(existsSync(cache)).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it.runIf(systemMajor !== null && systemMajor < 24)(
    'runs on the project’s own Node 24 when an older Node starts it, from any folder',
    async () => {
      const version24 = await runCli(['--version'], { cwd: tmpdir(), node: SYSTEM_NODE });
      expect(version24).toMatchObject({ code: 0, stdout: `${version}\n` });
      // A user's mistake keeps its message and exit code through the hand-over.
      const mistake = await runCli(['run', '/nonexistent/repo', '--test', 'true'], { cwd: tmpdir(), node: SYSTEM_NODE });
      expect(mistake.code).toBe(2);
      expect(mistake.stderr).toMatch(/REPO `\/nonexistent\/repo` does not exist/);
    },
  );
});
