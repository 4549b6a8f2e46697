// A runner that crashes in its own code is a broken toolchain, not a bug to repair: vitest 5 started
// by Node 20 (the machine's own Node) throws in its reporter as soon as a test fails, and a run would
// "repair" the code for as long as its budget lasts. Real vitest, real Node: the machine's 20 for the
// crash, fixloop's 24 for an unhandled error that is the repository's own.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import { emptyReport } from '../../src/core/test-report.ts';
import { environmentFailure } from '../../src/gate/environment-failure.ts';

const MODULES = resolve(import.meta.dirname, '../../node_modules');
const VITEST = join(MODULES, 'vitest/vitest.mjs');
const NODE_24 = join(MODULES, 'node/bin/node');
const MACHINE_NODE = '/usr/bin/node';
const machineMajor = Number(
  execFileSync(MACHINE_NODE, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim(),
);

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A vitest project with `test/a.test.js`, run by `node`; its whole output as the gate keeps it. */
function runVitest(node: string, testFile: string): GateResult {
  const dir = mkdtempSync(join(tmpdir(), 'fixloop-runner-crash-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'package.json'), '{ "name": "crash", "type": "module", "private": true }\n');
  writeFileSync(join(dir, 'test/a.test.js'), testFile);
  symlinkSync(MODULES, join(dir, 'node_modules'));
  const run = spawnSync(node, [VITEST, 'run'], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
  });
  return {
    passed: false,
    reason: 'NON_ZERO_EXIT',
    exitCode: run.status ?? 1,
    output: run.stdout + run.stderr,
    report: emptyReport(),
    durationMs: 1,
  };
}

const context = { testCommand: 'npx vitest run', timeoutSeconds: 60, repositoryFiles: ['package.json', 'test/a.test.js'] };
const ONE_FAILING =
  "import { test, expect } from 'vitest';\ntest('one', () => expect(1 + 1).toBe(2));\ntest('two', () => expect(2).toBe(3));\n";

describe("a runner's own crash on the baseline", () => {
  it.skipIf(machineMajor >= 21)(
    "is an environment error naming vitest's own error, when Node 20 runs vitest 5 on a red suite",
    () => {
      const failure = environmentFailure(runVitest(MACHINE_NODE, ONE_FAILING), context);
      expect(failure).toMatchObject({ code: 'RUNNER_CRASHED' });
      expect(failure?.message).toMatch(
        /crashed in the test runner's own code, not in a test: TypeError: Map\.groupBy is not a function.*\(in \S*node_modules\/vitest\//,
      );
      expect(failure?.hint).toContain('newer Node');
    },
  );

  it("is not claimed for an unhandled error of the repository's own code, nor for a failing test", () => {
    const dangling =
      "import { test } from 'vitest';\ntest('leaves a rejection', () => { Promise.reject(new TypeError('from the code')); });\n";
    const unhandled = runVitest(NODE_24, dangling);
    expect(unhandled.output).toMatch(/Unhandled/);
    expect(environmentFailure(unhandled, context)).toBeNull();
    expect(environmentFailure(runVitest(NODE_24, ONE_FAILING), context)).toBeNull();
  });
});
