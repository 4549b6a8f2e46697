// The functions the failing tests name, found in JavaScript/TypeScript and Python sources.
import { describe, expect, it } from 'vitest';
import {
  calledNames,
  constantLines,
  namedFunctionLines,
  namesInTests,
  readNames,
} from '../../../../src/engines/repair/localize/named-functions.ts';

describe('functions the failing tests name', () => {
  it('finds a JS/TS function, arrow function or method by a name in the test ids, with its whole body', () => {
    const names = namesInTests(['test/defu.test.ts > defuFn() > should merge functions', 'createDefu > custom merger']);
    const source = [
      'export function defu(a, b) {',
      '  return merge(a, b);',
      '}',
      '',
      'export const defuFn = createDefu((object, key, currentValue) => {',
      '  if (object[key] !== undefined && typeof currentValue === "function") {',
      '    object[key] = currentValue(object[key]);',
      '    return true;',
      '  }',
      '});',
      'export function createDefu<T>(merger?: Merger): DefuFn {',
      '  return (...args) => args.reduce((p, c) => _defu(p, c, "", merger), {});',
      '}',
      'class Store {',
      '  should() {',
      '    return 1;',
      '  }',
      '}',
    ].join('\n');
    expect(namedFunctionLines('src/defu.ts', source, names)).toEqual([
      { file: 'src/defu.ts', name: 'defuFn', lines: [5, 6, 7, 8, 9, 10] },
      { file: 'src/defu.ts', name: 'createDefu', lines: [11, 12, 13] },
    ]);
  });

  it('finds a Python function by a name in a test_ name, with its indented body', () => {
    const names = namesInTests(['tests/test_split.py::test_split_quoted_identifier']);
    const source = 'def split(sql):\n    parts = sql.split(";")\n\n    return parts\n\n\ndef format(sql):\n    return sql\n';
    expect(namedFunctionLines('sqlparse/api.py', source, names)).toEqual([
      { file: 'sqlparse/api.py', name: 'split', lines: [1, 2, 3, 4] },
    ]);
  });

  it('lists the functions a named body calls, not methods, keywords, itself or names in strings and comments', () => {
    const source = [
      'export function getQuery(input) {',
      '  if (!input) return getQuery("");',
      '  const parsed = parseURL(input); // normalize(input) once did this',
      '  return parseQuery(parsed.search, "decode(x)").map((v) => String(v));',
      '}',
    ].join('\n');
    const named = namedFunctionLines('src/utils.ts', source, new Set(['getQuery']));
    // `String` is too common a word to be a lead (as in test names).
    expect([...calledNames(source, named)].sort()).toEqual(['parseQuery', 'parseURL']);
    const python = 'def test_target(x):\n    return helper(x) + len(x)  # other(x)\n';
    expect([...calledNames(python, namedFunctionLines('m.py', python, new Set(['test_target'])))]).toEqual(['helper']);
  });

  it('finds the module constants a named body reads, by their top-level declarations', () => {
    const source = [
      'const PROTOCOL_REGEX = /^\\w+:(\\/\\/)?/;',
      'export const LIMIT: number = 10;',
      'export function hasProtocol(input) {',
      '  const LIMIT = 2; // shadows nothing at the top',
      '  return PROTOCOL_REGEX.test(input) && input.length > MIN && check(input);',
      '}',
      'function inner() {',
      '  const MIN = 1;',
      '}',
    ].join('\n');
    const named = namedFunctionLines('src/utils.ts', source, new Set(['hasProtocol']));
    const read = readNames(source, named);
    expect(read.has('PROTOCOL_REGEX')).toBe(true);
    expect(read.has('check')).toBe(false);
    expect(read.has('test')).toBe(false);
    // Only top-level declarations count (the indented `const MIN` is a local of another function).
    expect(constantLines('src/utils.ts', source, read)).toEqual([
      { file: 'src/utils.ts', name: 'PROTOCOL_REGEX', lines: [1] },
      { file: 'src/utils.ts', name: 'LIMIT', lines: [2] },
    ]);
    const python = 'PATTERN = re.compile(r"x")\nLIMIT: int = 3\n\ndef parse(text):\n    return PATTERN.match(text)\n';
    const pyRead = readNames(python, namedFunctionLines('m.py', python, new Set(['parse'])));
    expect(constantLines('m.py', python, pyRead)).toEqual([{ file: 'm.py', name: 'PATTERN', lines: [1] }]);
  });
});
