// The repair engine's focused command started without npm (src/runners/direct-launch.ts), with a real
// mocha: taken where it fails the failing tests as `npx` does, message for message; passed over for
// npx's own form where a test sees what npm gives its processes, or where the checkout's npm settings
// shape them.
import { symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseFocusedCommand } from '../../../src/engines/repair/focused-command.ts';
import { createProcessSandbox } from '../../../src/sandbox/process-sandbox.ts';
import type { TestCaseResult } from '../../../src/core/test-report.ts';
import { makeRepo, removeAll } from '../../support/git-fixture.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const DIRECT = 'PATH="$PWD/node_modules/.bin:$PATH" mocha';
const failed = (name: string): TestCaseResult => ({ id: name, name, file: 'test/math.js', status: 'failed' });

async function mochaRepo(tests: string): Promise<string> {
  const root = await makeRepo({
    'package.json': JSON.stringify({ name: 'direct' }),
    'math.js': 'exports.double = (x) => x * 3;\n',
    'test/math.js': `const assert = require('node:assert');\nconst m = require('../math.js');\n${tests}`,
  });
  dirs.push(root);
  await symlink(resolve(import.meta.dirname, '../../../node_modules'), join(root, 'node_modules'));
  return root;
}

async function choose(root: string, failing: TestCaseResult[], logged: string[] = []) {
  return chooseFocusedCommand({
    testCommand: 'npx mocha',
    failing,
    packageScripts: {},
    timeoutMs: 60_000,
    sandbox: createProcessSandbox(),
    root,
    linkedFolders: [],
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
    signal: new AbortController().signal,
    log: (line) => logged.push(line),
  });
}

describe('a focused command started without npm', () => {
  it('is taken where it fails the failing tests as npx does', async () => {
    const root = await mochaRepo("it('doubles', () => assert.strictEqual(m.double(2), 4));\n");
    expect(await choose(root, [failed('doubles')])).toEqual({ command: `${DIRECT} --grep doubles`, failing: 1 });
  });

  it('is passed over where a failing test sees what npm gives its processes', async () => {
    const root = await mochaRepo(
      "it('doubles under npm', () => assert.deepStrictEqual([process.env.npm_command, m.double(2)], ['exec', 4]));\n",
    );
    const logged: string[] = [];
    expect(await choose(root, [failed('doubles under npm')], logged)).toEqual({
      command: "npx mocha --grep 'doubles under npm'",
      failing: 1,
    });
    expect(logged).toContain(
      `repair: not focusing with \`${DIRECT} --grep 'doubles under npm'\`: its failures differ from \`npx mocha --grep 'doubles under npm'\`'s`,
    );
  });

  it('is not offered where the checkout’s npm settings give its processes options', async () => {
    const root = await mochaRepo("it('doubles', () => assert.strictEqual(m.double(2), 4));\n");
    await writeFile(join(root, '.npmrc'), 'node-options=--no-warnings\n');
    expect(await choose(root, [failed('doubles')])).toEqual({ command: 'npx mocha --grep doubles', failing: 1 });
  });
});
