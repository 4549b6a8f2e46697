// The plain process (src/gate/setup-then-gate.ts, `plain`: the look from outside the runner) runs as a
// user's program does: under bwrap its HOME is the account's home from the system's user database,
// where every other command's is a throw-away folder. A patch that compares the two told the sandbox
// from a machine, and its fix, made only in the sandbox, passed the plain process too.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import { createSuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { bwrapWorks, createBwrapSandbox } from '../../src/sandbox/bwrap-sandbox.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

// CI installs bubblewrap and sets FIXLOOP_REQUIRE_BWRAP: there, this must not be skipped.
describe.runIf(bwrapWorks() || process.env.FIXLOOP_REQUIRE_BWRAP === '1')('the plain process under bwrap', () => {
  it("has the account's home as HOME, where the tests' runs have a throw-away one", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fixloop-plain-home-'));
    dirs.push(dir);
    const config = repoConfigSchema.parse({ test: { command: 'node --test' } });
    const suite = createSuiteRunner({
      sandbox: createBwrapSandbox(),
      config,
      signal: new AbortController().signal,
      setupNetwork: false,
    });
    const command = `node -p "process.env.HOME + ' ' + require('node:os').userInfo().homedir"`;
    const plain = await suite.plain(dir, command, 20_000);
    const home = userInfo().homedir;
    expect(plain.output.trim()).toBe(`${home} ${home}`);
    const judged = await suite.gateWith(dir, command, 20_000);
    expect(judged.output).not.toContain(`${home} ${home}`);
  });
});
