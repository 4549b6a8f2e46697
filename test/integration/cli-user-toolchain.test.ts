// The repository's tests run on the user's Node, not fixloop's (issue 28, item 1). Under `npx fixloop`
// (or an npm script) npm puts fixloop's own node_modules/.bin first on PATH, and the `node` there is
// fixloop's bundled Node 24; an older Node that starts bin/fixloop.js hands over to that same Node.
// Here the real CLI starts that way, with that PATH in front of a folder whose `node` is the
// machine's other Node: the repository's own test asserts the version it runs on, and the JSON and
// the report name it, and the version the repository's .nvmrc asks for.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';
import { runCli, type CliRun } from '../support/run-cli.ts';
import { CALC_FILES } from '../library/calc-repo.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLED_NODE = join(ROOT, 'node_modules', 'node', 'bin', 'node');
/** The machine's own Node (Debian's): the user's, in this test. */
const USER_NODE = '/usr/bin/node';

function versionOf(node: string): string | null {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

const userVersion = existsSync(USER_NODE) ? versionOf(USER_NODE) : null;
const bundledVersion = existsSync(BUNDLED_NODE) ? versionOf(BUNDLED_NODE) : null;
/** A major version the user's Node is not: what the repository's .nvmrc asks for. */
const wantedMajor = String(Number(/^v(\d+)/.exec(userVersion ?? 'v0')?.[1] ?? 0) + 2);

const dirs: string[] = [];
let run: CliRun;
let out: string;
let userBin: string;

// Only where the two Nodes differ can the test tell which one ran the tests.
describe.runIf(userVersion !== null && bundledVersion !== null && userVersion !== bundledVersion)(
  'the user’s Node runs the repository’s tests',
  { timeout: 420_000 },
  () => {
    beforeAll(async () => {
      const scratch = mkdtempSync(join(tmpdir(), 'fixloop-user-toolchain-'));
      dirs.push(scratch);
      userBin = join(scratch, 'user-bin');
      execFileSync('mkdir', [userBin]);
      symlinkSync(USER_NODE, join(userBin, 'node'));
      const repo = await makeRepo({
        ...CALC_FILES,
        '.nvmrc': `${wantedMajor}\n`,
        'test/math.test.js': [
          "import assert from 'node:assert/strict';",
          "import { test } from 'node:test';",
          "import { add } from '../src/math.js';",
          '',
          "test('add sums two numbers', () => {",
          '  assert.equal(add(2, 3), 5);',
          '});',
          '',
          "test('runs on the user’s Node', () => {",
          "  console.log('node-version', process.version);",
          `  assert.equal(process.version, ${JSON.stringify(userVersion)});`,
          '});',
          '',
        ].join('\n'),
      });
      dirs.push(repo);
      out = join(scratch, 'out');
      // What npm makes of the user's PATH: fixloop's own .bin (with the bundled `node`) first.
      const path = [join(ROOT, 'node_modules', '.bin'), userBin, process.env.PATH ?? '/usr/bin:/bin'].join(':');
      const args = [
        'run',
        repo,
        '--test',
        'node --test',
        '--engine',
        'script',
        '--script',
        "sed -i 's/a - b/a + b/' src/math.js",
        '--json',
        '--out',
        out,
      ];
      // Started by the older Node, which hands over to the bundled one: the case where it runs fixloop.
      run = await runCli(args, { cwd: scratch, node: USER_NODE, env: { PATH: path } });
    }, 420_000);
    afterAll(() => removeAll(dirs));

    it('passes the test that asserts the user’s version: the baseline has one failure, the fix makes it green', () => {
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as RunResult;
      expect(result.status).toBe('tests_green');
      expect(result.baseline).toMatchObject({ failed: 1, passed: 1 });
      const logs = readdirSync(out, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.log'))
        .map((f) => readFileSync(join(out, f), 'utf8'))
        .join('\n');
      expect(logs).toContain(`node-version ${userVersion}`);
      expect(logs).not.toContain(`node-version ${bundledVersion}`);
    });

    it('names in the JSON the Node that ran the tests, with its version, and nothing of fixloop’s install', () => {
      const result = JSON.parse(run.stdout) as RunResult;
      const node = result.environment?.toolchains.find((t) => t.name === 'node');
      expect(node).toMatchObject({ version: userVersion, path: join(userBin, 'node') });
      expect(result.environment?.toolchains.find((t) => t.name === 'npm')?.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(JSON.stringify(result.environment)).not.toContain(join(ROOT, 'node_modules'));
    });

    it('says, in the JSON and the report, that the repository’s .nvmrc asks for another version', () => {
      const result = JSON.parse(run.stdout) as RunResult;
      expect(result.environment?.versionMismatches).toEqual([
        { tool: 'node', program: 'node', version: userVersion, file: '.nvmrc', wants: wantedMajor },
      ]);
      const report = readFileSync(join(out, 'report.md'), 'utf8');
      expect(report).toContain(`_Node ${userVersion} runs the tests; .nvmrc asks for ${wantedMajor}._`);
      expect(report).toMatch(new RegExp(`Toolchains: \`node\` ${userVersion?.replace(/\./g, '\\.')} \\(system, \`/usr\`\\)`));
    });
  },
);
