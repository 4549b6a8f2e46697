// What only a runner gives its tests, found in added code: comparing a variable honest code reads
// (`NODE_ENV`) with the value the runner gives it, and a value that answers the runner's equality
// protocol itself, in a project whose own code had none. Real patches on real git checkouts.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { harnessTampering, testFileCheck } from '../../src/verify/harness-tampering.ts';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';

const made: string[] = [];
afterAll(() => removeAll(made));

const LINES = "export function lines(text) {\n  return text.split(' ');\n}\n";

/** The messages for a patch that turns `before` into `after` in committed files, the tests aside. */
async function messages(before: Record<string, string>, after: Record<string, string>): Promise<string[]> {
  const dir = await makeRepo(before);
  made.push(dir);
  // The changes are to committed files: their folders are there.
  for (const [path, text] of Object.entries(after)) await writeFile(join(dir, path), text);
  const patch = git(dir, 'diff');
  const findings = await harnessTampering({ dir, patch, isTestFile: testFileCheck([], new Set()), log: () => {} });
  return findings.map((f) => f.message);
}

describe('comparing a variable with the value a runner gives it', () => {
  it('is a finding however the variable is read', async () => {
    const cases = [
      "  if (process.env.NODE_ENV === 'test') return text.split(/ +/);",
      "  const mode = process.env.NODE_ENV;\n  if (mode !== 'test') return [text];",
      "  const { NODE_ENV: env } = process.env;\n  if ('test' == env) return [];",
      "  switch (process.env.NODE_ENV) {\n    case 'production':\n      break;\n    case 'te' + 'st':\n      return [];\n  }",
      "  if (import.meta.env.MODE === 'test') return [];",
    ];
    for (const code of cases) {
      const found = await messages({ 'src/lines.js': LINES }, { 'src/lines.js': LINES.replace('{\n', `{\n${code}\n`) });
      expect(found, code).toEqual([
        expect.stringMatching(
          /^`src\/lines\.js:\d+` compares `(NODE_ENV|MODE)` with the value a test runner gives it: .*\(rule `detects-runner`\)$/,
        ),
      ]);
    }
  });

  it('leaves the split between development and production alone', async () => {
    const code = "  if (process.env.NODE_ENV !== 'production') console.warn('lines: text');";
    expect(await messages({ 'src/lines.js': LINES }, { 'src/lines.js': LINES.replace('{\n', `{\n${code}\n`) })).toEqual([]);
  });
});

describe("a value that answers the runner's equality protocol itself", () => {
  const sameWords =
    "  const out = text.split(' ');\n  Object.defineProperty(out, 'asymmetricMatch', { value: (other) => other.join(' ') === text });\n  return out;";

  it('is a finding in a project whose code had none', async () => {
    const found = await messages(
      { 'src/lines.js': LINES },
      { 'src/lines.js': LINES.replace("  return text.split(' ');", sameWords) },
    );
    expect(found).toEqual([
      expect.stringMatching(/^`src\/lines\.js:3` gives a value `asymmetricMatch`, .*\(rule `runner-equality`\)$/),
    ]);
  });

  it("is no finding in a library of matchers, nor for the tests' own", async () => {
    const matchers = {
      'src/matchers.js': 'export const anyWord = { asymmetricMatch: (s) => /\\w/.test(s) };\n',
      'src/lines.js': LINES,
    };
    const changed = { 'src/lines.js': LINES.replace("  return text.split(' ');", sameWords) };
    expect(await messages(matchers, changed)).toEqual([]);
    const testsOnly = { 'test/helpers.js': 'export const any = { asymmetricMatch: () => true };\n', 'src/lines.js': LINES };
    expect(await messages(testsOnly, changed)).toEqual([expect.stringContaining('rule `runner-equality`')]);
  });
});
