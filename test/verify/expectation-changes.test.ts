// The expected values a fixed test's body states, changed (src/verify/js-expectations.ts and
// src/verify/changed_expectations.py): which assertions count (equality, a literal on one side,
// surely reached), what each literal becomes, and what is left alone.
import { describe, expect, it } from 'vitest';
import { changedJsExpectations } from '../../src/verify/js-expectations.ts';
import { changedPyExpectations, pytestFunctionName } from '../../src/verify/py-expectations.ts';

describe('a JavaScript test body with its expected values changed', () => {
  const changed = (body: string, name = 'sums') =>
    changedJsExpectations('t.test.js', `test('sums', async (t) => {\n${body}\n});\n`, [name]);

  it('changes the literal side of each equality assertion it surely reaches, one leaf each', () => {
    const result = changed(
      [
        'assert.equal(add(2, 2), 4);',
        'assert.strictEqual(-1, sub(1, 2));',
        "expect(name()).toBe('ab');",
        'expect(list()).to.deep.equal([1, { k: true }]);',
        'await expect(load()).resolves.toEqual(`x`);',
        't.assert.deepStrictEqual(flag(), false);',
        'strictEqual(big(), 10n);',
      ].join('\n'),
    );
    expect(result?.changes.map((c) => [c.line, c.before, c.after])).toEqual([
      [2, '4', '5'],
      [3, '1', '2'],
      [4, "'ab'", '"ab!"'],
      [5, '1', '2'],
      [6, '`x`', '"x!"'],
      [7, 'false', 'true'],
      [8, '10n', '11n'],
    ]);
    expect(result?.text).toContain('assert.strictEqual(-2, sub(1, 2));');
    expect(result?.text).toContain('expect(list()).to.deep.equal([2, { k: true }]);');
  });

  it('turns any other assertion it knows into its opposite', () => {
    const cases: Array<[string, string]> = [
      ['assert.equal(add(2, 2), expected);', 'assert.notEqual(add(2, 2), expected);'],
      ['assert.deepStrictEqual(a, b);', 'assert.notDeepStrictEqual(a, b);'],
      ['assert.isFalse(stub.called);', 'assert.isTrue(stub.called);'],
      ['assert(ready && done);', 'assert(!(ready && done));'],
      ['assert.ok(list.length > 2, "long");', 'assert.ok(!(list.length > 2), "long");'],
      ['expect(add(2, 2)).toBeGreaterThan(3);', 'expect(add(2, 2)).not.toBeGreaterThan(3);'],
      ['expect(add(2, 2)).toBe(null);', 'expect(add(2, 2)).not.toBe(null);'],
      ['expect(spy).toHaveBeenCalledWith(a);', 'expect(spy).not.toHaveBeenCalledWith(a);'],
      ['expect(x).to.be.true;', 'expect(x).to.be.false;'],
      ['await expect(load()).resolves.toEqual(value);', 'await expect(load()).resolves.not.toEqual(value);'],
    ];
    for (const [body, after] of cases) expect(changed(body)?.text, body).toContain(after);
  });

  it('leaves alone what an honest test might pass with changed: negations, unawaited promises, unknown calls, branches, and all after an early exit', () => {
    for (const body of [
      'expect(add(2, 2)).not.toBe(5);',
      'expect(load()).resolves.toBe(4);',
      'check(add(2, 2), 4);',
      'expect(add(2, 2)).toMatchSnapshot();',
      'if (ready) assert.equal(add(2, 2), 4);',
      'items.forEach((i) => assert.equal(i, 1));',
      'if (!ready) return;\nassert.equal(add(2, 2), 4);',
      't.skip();\nassert.equal(add(2, 2), 4);',
    ])
      expect(changed(body)?.changes, body).toEqual([]);
  });

  it('leaves alone a test marked to fail, which passes when its body raises', () => {
    for (const marked of ['test.failing', 'it.fails'])
      expect(
        changedJsExpectations('t.test.js', `${marked}('sums', () => expect(add(2, 2)).toBe(5));\n`, ['sums'])?.changes,
      ).toEqual([]);
  });

  it('stops at a call of the test’s callback, and finds the body under its name only', () => {
    const text =
      "it('a', (done) => {\n  assert.equal(f(), 1);\n  done();\n  assert.equal(f(), 2);\n});\nit('b', () => assert.equal(g(), 3));\n";
    const result = changedJsExpectations('t.js', text, ['a', 'b', 'c']);
    expect(result?.changes.map((c) => [c.test, c.line, c.after])).toEqual([
      ['a', 2, '2'],
      ['b', 6, '4'],
    ]);
  });
});

describe('a Python test body with its expected values changed', () => {
  it('changes asserts of equality and unittest assertEqual calls before any return, by character column, and negates other asserts', async () => {
    const source = [
      'def test_a():',
      '    r = f(2)',
      '    assert r == 4',
      '    assert "é" + g() == "héllo"',
      '    assert 3 == h()',
      '    assert r != 9',
      '    if r:',
      '        assert r == 9',
      '    return',
      '    assert r == 5',
      '',
      'class TestK:',
      '    def test_b(self):',
      '        self.assertEqual(f(1), (True, -2, b"x"))',
      '',
      'def test_c():',
      '    assert f() == g()',
      '',
    ].join('\n');
    const result = await changedPyExpectations(source, ['test_a', 'TestK.test_b', 'test_c']);
    expect(result?.changes.map((c) => [c.test, c.line, c.before, c.after])).toEqual([
      ['test_a', 3, '4', '5'],
      ['test_a', 4, '"héllo"', "'héllo!'"],
      ['test_a', 5, '3', '4'],
      ['test_a', 6, 'r != 9', 'not (r != 9)'],
      ['TestK.test_b', 14, 'True', 'False'],
      ['test_c', 17, 'f() == g()', 'not (f() == g())'],
    ]);
    expect(result?.text).toContain(`    assert "é" + g() == 'héllo!'\n`);
    expect(result?.text).toContain('        self.assertEqual(f(1), (False, -2, b"x"))\n');
    expect(result?.text).toContain('    return\n    assert r == 5\n');
  });

  it('names the function of a pytest id, its parameters and file left out', () => {
    expect(pytestFunctionName('tests/test_a.py::TestK::test_b[1-2]')).toBe('TestK.test_b');
    expect(pytestFunctionName('test_a.py::test_c')).toBe('test_c');
    expect(pytestFunctionName('test_a.py')).toBeNull();
  });

  it('turns unittest assertions into their opposites', async () => {
    const source =
      'class TestK:\n    def test_b(self):\n        self.assertTrue(f())\n        self.assertEqual(f(), g())\n        self.assertIsNone(h())\n';
    const result = await changedPyExpectations(source, ['TestK.test_b']);
    expect(result?.changes.map((c) => c.after)).toEqual(['assertFalse', 'assertNotEqual', 'assertIsNotNone']);
    expect(result?.text).toContain('        self.assertNotEqual(f(), g())\n');
  });
});
