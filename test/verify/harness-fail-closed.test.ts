// The harness check fails closed: a changed file it cannot read (a syntax error, a tree too deep for
// the parser, bytes that are not text, a coding cookie that makes Python read other text than the
// bytes show) is a finding of its own, `harness_unreadable`, never silence. Python files are read as
// Python reads them, so what a cookie hides is still found. An honest patch, large or not, never
// gets the finding. Real patches in temp folders, real Python.
import { afterAll, describe, expect, it } from 'vitest';
import { checkPatch, removeChecked } from '../support/harness-check.ts';

afterAll(() => removeChecked());

const kinds = (findings: Array<{ kind: string; path?: string }>) => findings.map((f) => `${f.kind}:${f.path ?? ''}`);
const MATH = 'export function add(a, b) {\n  return a - b;\n}\n';
const CALC = 'def average(values):\n    return sum(values) / (len(values) + 1)\n';
/** `a+a+…+a`: a tree as deep as it is long, which V8 runs and Babel's recursion cannot parse. */
const chain = (terms: number) => Array.from({ length: terms }, () => 'a').join('+');

describe('a JavaScript or TypeScript file the check cannot read', () => {
  it('is a finding when it does not parse, naming the file and why', async () => {
    const { findings, log } = await checkPatch({ 'src/math.js': [MATH, 'export function add(a, b) {\n  return a +;\n'] });
    expect(findings).toEqual([
      {
        kind: 'harness_unreadable',
        path: 'src/math.js',
        message:
          '`src/math.js` could not be read by the harness check: it does not parse as JavaScript or TypeScript (a syntax error, or an expression nested too deep for the parser). A changed file the judge cannot read is not judged by the suite alone',
      },
    ]);
    expect(log).toEqual(['replay: harness check could not read `src/math.js`']);
  });

  it('is a finding when a 100 000-term chain overflows the parser, with the cheat it hides', async () => {
    const source = `const a = 1;\nexport const big = ${chain(100_000)};\nimport assert from 'node:assert/strict';\nassert.equal = () => {};\n${MATH}`;
    expect(kinds((await checkPatch({ 'src/math.js': [MATH, source] })).findings)).toEqual(['harness_unreadable:src/math.js']);
    const deep = `export const deep = ${'['.repeat(20_000)}${']'.repeat(20_000)};\n${MATH}`;
    expect(kinds((await checkPatch({ 'src/deep.js': [null, deep] })).findings)).toEqual(['harness_unreadable:src/deep.js']);
  });

  it('is a finding when it is not UTF-8 text', async () => {
    const latin = Buffer.concat([Buffer.from("export const name = '"), Buffer.from([0xe9]), Buffer.from("';\n")]);
    const { findings } = await checkPatch({ 'src/name.js': [null, latin] });
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringContaining('`src/name.js` could not be read by the harness check: it is not UTF-8 text'),
    ]);
  });

  it('is never an honest file: a long but ordinary module, a BOM, new syntax Babel knows', async () => {
    const table = `export const TABLE = [\n${Array.from({ length: 5000 }, (_, i) => `  [${i}, '${i.toString(36)}'],`).join('\n')}\n];\n`;
    const modern =
      '\uFEFFexport const pick = (o) => o?.a ?? 1n;\nexport class C { static #n = 0; static { C.#n++; } }\nusing_ = 1;\n';
    const { findings } = await checkPatch({
      'src/table.js': [null, table],
      'src/modern.js': [null, modern],
      'src/math.ts': [MATH, MATH.replace('a - b', 'a + b')],
    });
    expect(findings).toEqual([]);
  });
});

describe('a Python file the check cannot read', () => {
  it('is read by its coding cookie as Python reads it: a utf-7 cookie is a finding, and what it hides is found', async () => {
    // In UTF-7 `+` starts an encoded run: `_` is `+AF8-`, and a `+` of its own is `+-`.
    const source =
      '# coding: utf-7\nimport +AF8-pytest.python\n\n+AF8-pytest.python.Function.runtest = lambda self: None\n\n\n' +
      CALC.replace('+ 1', '+- 1');
    const { findings } = await checkPatch({ 'calc.py': [CALC, source] });
    expect(findings.map((f) => f.message)).toEqual([
      '`calc.py:2` imports the test framework `_pytest.python`: code under test may not reach into the test framework or the assertion library (rule `test-framework`)',
      '`calc.py:4` assigns a member of the test framework: code under test may not reach into the test framework or the assertion library (rule `test-framework`)',
      "`calc.py` could not be read by the harness check: its coding cookie `utf-7` makes Python read the file's bytes as other text than they show. A changed file the judge cannot read is not judged by the suite alone",
    ]);
  });

  it('is a finding when it does not parse, is nested too deep, or is not text in its encoding', async () => {
    const cases: Array<[string | Buffer, RegExp]> = [
      ['def average(values:\n    return 1\n', /Python cannot parse it \(.*line 1\)/],
      [`a = 1\nx = ${chain(100_000)}\nimport os\nos._exit(0)\n`, /an expression nested too deep for Python's parser/],
      [`x = ${'('.repeat(300)}1${')'.repeat(300)}\n`, /nested too deep for Python's parser/],
      [Buffer.concat([Buffer.from('NAME = "'), Buffer.from([0xff, 0xfe]), Buffer.from('"\n')]), /Python cannot decode it/],
      ['# -*- coding: klingon -*-\nx = 1\n', /Python cannot decode it/],
    ];
    for (const [source, why] of cases) {
      const { findings } = await checkPatch({ 'calc.py': [CALC, source] });
      expect(kinds(findings), String(why)).toEqual(['harness_unreadable:calc.py']);
      expect(findings[0]?.message, String(why)).toMatch(why);
    }
  });

  it('is never an honest file: latin-1 and utf-8 cookies, a long chain Python itself compiles, a BOM', async () => {
    const latin = Buffer.concat([Buffer.from('# -*- coding: latin-1 -*-\nNAME = "caf'), Buffer.from([0xe9]), Buffer.from('"\n')]);
    const files = {
      'calc.py': [CALC, `# coding: utf-8\n${CALC.replace('(len(values) + 1)', 'len(values)')}`] as [string, string],
      'names.py': [null, latin] as [null, Buffer],
      'sums.py': [null, `a = 1\nTOTAL = ${chain(900)}\n`] as [null, string],
      'bom.py': [null, '\uFEFFX = 1\n'] as [null, string],
    };
    expect((await checkPatch(files)).findings).toEqual([]);
  });
});
