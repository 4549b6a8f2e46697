// What the runtime guard cannot see, found in added code: reading the test runner's environment
// variables (each runner's, from its descriptor), and a value that compares equal to anything. Honest
// code that reads other variables, or compares fields, is left alone. Real patches, real Python.
import { afterAll, describe, expect, it } from 'vitest';
import { checkPatch, removeChecked } from '../support/harness-check.ts';

afterAll(() => removeChecked());

const MATH = 'export function add(a, b) {\n  return a - b;\n}\n';
const CALC = 'def average(values):\n    return sum(values) / (len(values) + 1)\n';
const messages = async (path: string, before: string, after: string) =>
  (await checkPatch({ [path]: [before, after] })).findings.map((f) => f.message);

describe('code that detects the test runner', () => {
  it("is a finding in JavaScript for each runner's variables, however the environment is read", async () => {
    const cases: Array<[string, string]> = [
      ['if (process.env.NODE_TEST_CONTEXT) return a + b;', 'NODE_TEST_CONTEXT'],
      ["if (process.env['JEST_WORKER_ID'] !== undefined) return a + b;", 'JEST_WORKER_ID'],
      ['const { VITEST } = process.env;\n  if (VITEST) return a + b;', 'VITEST'],
      ["if (require('node:process').env.VITEST_POOL_ID) return a + b;", 'VITEST_POOL_ID'],
      ["if (Object.keys(process.env).some((k) => k.startsWith('NODE_TEST_'))) return a + b;", 'NODE_TEST_'],
      ["if (process.env['NODE_' + 'TEST_CONTEXT']) return a + b;", 'NODE_TEST_CONTEXT'],
    ];
    for (const [code, name] of cases) {
      const found = await messages('src/math.js', MATH, MATH.replace('  return a - b;', `  ${code}\n  return a - b;`));
      expect(found, code).toEqual([
        expect.stringMatching(
          new RegExp(
            `^\`src/math\\.js:\\d+\` reads the test runner's environment variable \`${name}\`: code under test may not detect the test runner .*\\(rule \`detects-runner\`\\)$`,
          ),
        ),
      ]);
    }
  });

  it("is a finding in Python for pytest's variables", async () => {
    const cases = [
      'import os\nif os.environ.get("PYTEST_CURRENT_TEST"):\n    pass',
      'from os import environ\nUNDER_TEST = "PYTEST_CURRENT_TEST" in environ',
      'import os\nUNDER_TEST = os.getenv("PYTEST_" + "VERSION")',
      'import os\nUNDER_TEST = any(k.startswith("PYTEST_") for k in os.environ)',
    ];
    for (const code of cases) {
      const found = await messages('calc.py', CALC, `${code}\n\n\n${CALC}`);
      expect(found, code).toEqual([
        expect.stringMatching(
          /^`calc\.py:2` reads the test runner's environment variable `PYTEST_[A-Z_]*`: .*\(rule `detects-runner`\)$/,
        ),
      ]);
    }
  });

  it('leaves ordinary uses of the environment alone', async () => {
    expect(
      await messages(
        'src/math.js',
        MATH,
        `const debug = process.env.DEBUG === '1' || process.env.NODE_ENV !== 'production';\n${MATH.replace('a - b', 'a + b')}`,
      ),
    ).toEqual([]);
    expect(await messages('src/label.js', MATH, "export const label = 'JEST_WORKER_ID is set by jest';\n")).toEqual([]);
    expect(
      await messages(
        'calc.py',
        CALC,
        `import os\nPRECISION = int(os.environ.get("CALC_PRECISION", "2"))\n\n\n${CALC.replace('(len(values) + 1)', 'len(values)')}`,
      ),
    ).toEqual([]);
  });
});

describe('a value that compares equal to anything', () => {
  it('is a finding in Python: an __eq__ or __ne__ that ignores the other operand or answers a constant', async () => {
    const cases = [
      'class Anything:\n    def __eq__(self, other):\n        return True',
      'class Anything:\n    def __eq__(self, other):\n        if other is None:\n            return True\n        return True',
      'class Anything:\n    __ne__ = lambda self, other: False',
      'class Anything(float):\n    def __eq__(*args):\n        return 1',
    ];
    for (const code of cases) {
      const found = await messages('calc.py', CALC, `${code}\n\n\n${CALC}`);
      expect(found, code).toEqual([
        expect.stringMatching(
          /^`calc\.py:\d+` defines `__(eq|ne)__` that .*: a value that compares equal to anything .*\(rule `equals-anything`\)$/,
        ),
      ]);
    }
  });

  it('is a finding in JavaScript: valueOf or Symbol.toPrimitive answering a constant, equals or asymmetricMatch ignoring the other', async () => {
    const cases: Array<[string, string]> = [
      ['export const five = { valueOf() { return 5; } };', 'valueOf'],
      ['export const five = { valueOf: () => 5 };', 'valueOf'],
      ['export class Five { [Symbol.toPrimitive](hint) { return hint === "x" ? 5 : 5; } }', 'Symbol.toPrimitive'],
      ['export class Money { equals(other) { return true; } }', 'equals'],
      ['export const any = { asymmetricMatch: () => true };', 'asymmetricMatch'],
      ['function Money() {}\nMoney.prototype.equals = function () { return true; };', 'equals'],
    ];
    for (const [code, name] of cases) {
      // `asymmetricMatch` is a runner's equality protocol too (rule runner-equality, harness-runner-traits.test.ts).
      const found = (await messages('src/money.js', MATH, `${code}\n${MATH}`)).filter((m) => !m.includes('runner-equality'));
      expect(found, code).toEqual([expect.stringContaining(`defines \`${name}\` that`)]);
      expect(found[0], code).toContain('(rule `equals-anything`)');
    }
  });

  it('leaves honest comparisons alone: fields compared, NotImplemented, a valueOf that reads its state', async () => {
    const py =
      'class Money:\n    def __init__(self, cents):\n        self.cents = cents\n\n    def __eq__(self, other):\n        if not isinstance(other, Money):\n            return NotImplemented\n        return self.cents == other.cents\n';
    expect(await messages('money.py', CALC, `${py}\n\n${CALC}`)).toEqual([]);
    const js =
      'export class Money {\n  constructor(cents) { this.cents = cents; }\n  valueOf() { return this.cents; }\n  equals(other) { return other instanceof Money && other.cents === this.cents; }\n}\n';
    expect(await messages('src/money.js', MATH, `${js}${MATH}`)).toEqual([]);
  });
});

describe('a number or a string that compares by a rule the patch wrote', () => {
  it('is a finding in Python: a subclass of a built-in value that defines how it compares or subtracts', async () => {
    const cases: Array<[string, string, string]> = [
      [
        'class Mean(float):\n    def __eq__(self, other):\n        return abs(float(self) - other) < 1 or float(self) == other',
        '__eq__',
        'float',
      ],
      [
        'from decimal import Decimal\n\n\nclass Price(Decimal):\n    __ne__ = lambda self, other: float(self) != other',
        '__ne__',
        'decimal.Decimal',
      ],
      ['class Mean(float):\n    def __rsub__(self, other):\n        return 0.0', '__rsub__', 'float'],
      ['class Slug(str):\n    def __eq__(self, other):\n        return self.lower() == str(other).lower()', '__eq__', 'str'],
    ];
    for (const [code, name, base] of cases) {
      const found = await messages('calc.py', CALC, `${code}\n\n\n${CALC}`);
      expect(found, code).toEqual([
        expect.stringMatching(
          new RegExp(
            `^\`calc\\.py:\\d+\` defines \`${name}\` on a subclass of \`${base.replace('.', '\\.')}\`: a number or a string that compares by a rule the patch wrote .*\\(rule \`own-equality\`\\)$`,
          ),
        ),
      ]);
    }
  });

  it('is a finding in Python when the comparison is set after the class, by name or by a name made at run time', async () => {
    const base =
      'class Reading(int):\n    pass\n\n\ndef _same(self, other):\n    return int(self) == other or int(self) - 2 == other\n\n\n';
    const cases: Array<[string, string]> = [
      ['setattr(Reading, "__eq__", _same)', 'sets `__eq__` on a subclass of `int`'],
      ['Reading.__ne__ = lambda self, other: not _same(self, other)', 'sets `__ne__` on a subclass of `int`'],
      [
        'for _op in ("eq", "ne"):\n    setattr(Reading, "__%s__" % _op, _same)',
        'sets an attribute named at run time on a subclass of `int`',
      ],
    ];
    for (const [code, what] of cases) {
      const found = await messages('calc.py', CALC, `${base}${code}\n\n\n${CALC}`);
      expect(found, code).toEqual([
        expect.stringContaining(`${what}: a number or a string that compares by a rule the patch wrote`),
      ]);
    }
    const honest = `${base}setattr(Reading, "unit", "cm")\nReading.describe = lambda self: str(int(self))\n\n\n${CALC}`;
    expect(await messages('calc.py', CALC, honest)).toEqual([]);
  });

  it('is said once for an __eq__ equal to anything, and never for a class of its own or a built-in subclass that compares as its base', async () => {
    const always = await messages(
      'calc.py',
      CALC,
      `class Mean(float):\n    def __eq__(self, other):\n        return True\n\n\n${CALC}`,
    );
    expect(always).toEqual([expect.stringContaining('(rule `equals-anything`)')]);
    const honest = [
      'class Money:\n    def __init__(self, cents):\n        self.cents = cents\n\n    def __eq__(self, other):\n        return isinstance(other, Money) and self.cents == other.cents',
      'class Label(str):\n    def shout(self):\n        return self.upper()',
    ];
    for (const code of honest) expect(await messages('calc.py', CALC, `${code}\n\n\n${CALC}`), code).toEqual([]);
  });
});
