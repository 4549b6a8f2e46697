// Where a focused `node --test` command takes its selection, checked on a real node: after an
// option that followed `--test` with its value (`--import ./setup.mjs`), which node drops once a
// file is written before it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { focusedTestCommand } from '../../src/runners/focused-test-command.ts';
import { nodeOptionsEnd } from '../../src/runners/node-test/options-end.ts';
import type { TestCaseResult } from '../../src/core/test-report.ts';

describe('nodeOptionsEnd', () => {
  it("is after node's options and their values, before the first positional word", () => {
    const at = (command: string) => {
      const end = nodeOptionsEnd(command);
      return end === null ? null : command.slice(0, end);
    };
    expect(at('node --test')).toBe('node --test');
    expect(at('node --test a.test.js')).toBe('node --test');
    expect(at('node --import tsx --test --import=x --loader y test/ --z')).toBe('node --import tsx --test --import=x --loader y');
    expect(at('node --test --test-only --no-warnings test/')).toBe('node --test --test-only --no-warnings');
    expect(at("node --test --test-name-pattern 'a b' t.js")).toBe("node --test --test-name-pattern 'a b'");
    expect(at('node a.js')).toBeNull();
  });
});

describe('a focused node --test command with an option after --test, run by node', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fixloop-node-options-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'setup.mjs'), 'globalThis.prepared = true;\n');
  writeFileSync(
    join(dir, 'a.test.mjs'),
    "import test from 'node:test';\nimport assert from 'node:assert';\n" +
      "test('needs setup', () => assert.strictEqual(globalThis.prepared, true));\n" +
      "test('other', () => assert.fail('not selected'));\n",
  );

  it("keeps the option node's, and runs only the selected test", () => {
    const failing: TestCaseResult[] = [{ id: 'needs setup', name: 'needs setup', file: 'a.test.mjs', status: 'failed' }];
    const command = focusedTestCommand('node --test --import ./setup.mjs "*.test.mjs"', failing, {}, { withFiles: true });
    expect(command).toBe("node --test --import ./setup.mjs --test-name-pattern='needs setup' a.test.mjs");
    const env = { ...process.env, NODE_OPTIONS: '--test-reporter=tap' };
    const output = execFileSync('sh', ['-c', command ?? 'false'], { cwd: dir, encoding: 'utf8', env });
    expect(output).toMatch(/^# pass 1$/m);
    expect(output).toMatch(/^# fail 0$/m);
  });
});
