// Whose call a record is when the failing tests cannot run alone: the failing tests' own code found
// by their titles, and each call's test lines matched against it.
import { describe, expect, it } from 'vitest';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import { failingTestSpans, fromFailingTests } from '../../src/assess/failing-test-callers.ts';
import type { ProbeRecord } from '../../src/assess/probe-record.ts';

const FILES: Record<string, string> = {
  'test/style.test.js': [
    "const { describe, it } = require('node:test');", // 1
    "describe('style', () => {", // 2
    "  it('keeps a colour', () => {", // 3
    "    set('red');", // 4
    '  });', // 5
    '  it(`sets var() for attachment`, () => {', // 6
    "    set('var(--x)');", // 7
    '  });', // 8
    "  it.skip('sets var() for attachment', () => {});", // 9: the same title elsewhere counts too
    "  for (const property of ['width', 'padding']) {", // 10
    '    it(`supports calc for ${property}`, () => {', // 11
    "      set('calc(1px)');", // 12
    '    });', // 13
    '  }', // 14
    '});', // 15
  ].join('\n'),
  'test/other.test.js': "it('unrelated', () => {});\n",
  'test/loose.test.js': "// a table of cases: 'loose title' is in the text, in no it() call\n",
};

const sources = { read: async (path: string) => FILES[path] ?? null, testFiles: async () => Object.keys(FILES) };
const failing = (name: string, file?: string): TestCaseResult => ({
  id: `style > ${name}`,
  name,
  status: 'passed',
  ...(file ? { file } : {}),
});
const call = (site: string, testLines?: string[]): ProbeRecord => ({
  fn: 'lib/parse.js#parse',
  args: "'x'",
  kind: 'suite',
  out: { returned: "'x'" },
  site,
  ...(testLines ? { testLines } : {}),
});

describe("the failing tests' own code", () => {
  it("is the span of each test declaration that bears a failing test's title, in a file that holds it", async () => {
    expect(await failingTestSpans([failing('sets var() for attachment')], sources)).toEqual(
      new Map([
        [
          'test/style.test.js',
          [
            [6, 8],
            [9, 9],
          ],
        ],
      ]),
    );
  });

  it('is a test declared in a loop, its title a template whose expressions stand for any text', async () => {
    const spans = await failingTestSpans([failing('supports calc for padding', 'test/style.test.js')], sources);
    expect(spans).toEqual(new Map([['test/style.test.js', [[11, 13]]]]));
    // With no file named (mocha, node's runner without a failure location), found by the template too.
    expect(await failingTestSpans([failing('supports calc for padding')], sources)).toEqual(spans);
  });

  it('is the whole file where the title is in the text but no test declares it, or the runner named the file', async () => {
    const spans = await failingTestSpans(
      [failing('loose title'), failing('not written anywhere', 'test/other.test.js')],
      sources,
    );
    expect(spans).toEqual(
      new Map([
        ['test/other.test.js', null],
        ['test/loose.test.js', null],
      ]),
    );
  });
});

describe('a call from the failing tests', () => {
  it("has a test line in a failing test's span, though its first caller is a generated bundle", async () => {
    const fixed = [failing('sets var() for attachment')];
    const from = fromFailingTests(fixed, await failingTestSpans(fixed, sources));
    expect(from(call('lib/generated/properties.js:162', ['test/style.test.js:7']))).toBe(true);
    // The passing test in the same file, through the same bundle line: not the failing test's call.
    expect(from(call('lib/generated/properties.js:162', ['test/style.test.js:4']))).toBe(false);
    // A helper of the test file outside the test, then the test itself.
    expect(from(call('lib/generated/properties.js:162', ['test/helper.js:2', 'test/style.test.js:7']))).toBe(true);
    expect(from(call('lib/generated/properties.js:162'))).toBe(false);
  });

  it("is pytest's test id, or, with no test line, a first caller in a file the runner named", () => {
    const fixed: TestCaseResult[] = [
      { id: 'tests/test_x.py::test_a', name: 'test_a', file: 'tests/test_x.py', status: 'passed' },
    ];
    const from = fromFailingTests(fixed, new Map());
    expect(from(call('tests/test_x.py::test_a'))).toBe(true);
    expect(from(call('tests/test_x.py:12'))).toBe(true);
    expect(from(call('tests/test_y.py::test_b'))).toBe(false);
  });
});
