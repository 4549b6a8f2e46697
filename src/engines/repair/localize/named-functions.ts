// Functions the failing tests name: a test called `defuFn() > should merge functions` or
// `test_split_quoted_identifier` is about `defuFn` or `split`; when no frame points into the source
// (an assertion on a returned value), the body of the function it names is the likeliest place of
// the bug among the files it imports, then the functions that body calls. Found on the source text: a declaration line that introduces
// the name (`function name`, `name = (…) =>`, `name(…) {` in a class, `def name`), and its body by
// braces (JavaScript/TypeScript) or by indentation (Python).

export interface NamedLines {
  file: string;
  lines: number[];
  name: string;
}

/** Identifiers in test names: words of 3+ characters, as written (camelCase kept) and split at `_`. */
export function namesInTests(testNames: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const text of testNames) {
    // A test id's file path names the test file, not a function (`test/defu.test.ts > defuFn()`).
    const words = text
      .split(/\s+/)
      .map((token) => (token.includes('::') ? token.split('::').slice(1).join(' ') : token))
      .filter((token) => !/[/\\]|\.\w{1,4}$/.test(token))
      .join(' ');
    for (const word of words.match(/[A-Za-z_$][\w$]{2,}/g) ?? []) {
      names.add(word);
      for (const part of word.split('_')) if (part.length >= 3) names.add(part);
    }
  }
  return names;
}

const WORDS_TOO_COMMON = new Set([
  'should',
  'test',
  'tests',
  'the',
  'and',
  'for',
  'with',
  'when',
  'returns',
  'return',
  'works',
  'not',
  'does',
  'that',
  'this',
  'from',
  'function',
  'async',
  'const',
  'class',
  'def',
  'self',
  'true',
  'false',
  'null',
  'none',
  'undefined',
  'error',
  'throws',
  'value',
  'values',
  'string',
  'number',
  'object',
  'array',
  'list',
  'new',
  'get',
  'set',
]);

/** The bodies of the functions of one file whose names the tests use. */
export function namedFunctionLines(file: string, source: string, names: ReadonlySet<string>): NamedLines[] {
  const lines = source.split('\n');
  const python = file.endsWith('.py');
  const out: NamedLines[] = [];
  lines.forEach((text, i) => {
    const name = declaredName(text, python);
    if (!name || WORDS_TOO_COMMON.has(name.toLowerCase()) || !names.has(name)) return;
    const end = python ? indentedBlockEnd(lines, i) : bracedBlockEnd(lines, i);
    if (end === null) return;
    out.push({ file, name, lines: Array.from({ length: end - i + 1 }, (_, k) => i + 1 + k) });
  });
  return out;
}

/**
 * Functions a named function calls (`name(`), by name: a test named after a thin wrapper
 * (`getQuery() > …` over `return parseQuery(parseURL(input).search)`) tests the functions it calls.
 */
export function calledNames(source: string, named: readonly NamedLines[]): Set<string> {
  const lines = source.split('\n');
  const called = new Set<string>();
  for (const { lines: body, name } of named) {
    // The declaration line names the function itself; its body starts after it.
    for (const line of body.slice(1)) {
      const code = (lines[line - 1] ?? '').replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""').replace(/(\/\/|#).*$/, '');
      for (const match of code.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(/g)) {
        const callee = match[1] ?? '';
        if (callee !== name && !CALL_KEYWORDS.has(callee) && !WORDS_TOO_COMMON.has(callee.toLowerCase())) called.add(callee);
      }
    }
  }
  return called;
}

/** Identifiers a named body reads without calling them (`PROTOCOL_REGEX.test(input)` reads `PROTOCOL_REGEX`). */
export function readNames(source: string, named: readonly NamedLines[]): Set<string> {
  const lines = source.split('\n');
  const read = new Set<string>();
  for (const { lines: body } of named) {
    for (const line of body.slice(1)) {
      const code = (lines[line - 1] ?? '').replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""').replace(/(\/\/|#).*$/, '');
      for (const match of code.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)(?!\s*\(|[\w$])/g)) read.add(match[1] ?? '');
    }
  }
  return read;
}

/**
 * The declaration lines of module-level constants with these names (`const PROTOCOL_REGEX = /…/;`,
 * Python's `PATTERN = re.compile(…)` at the top level): a value a named function reads, such as a
 * regular expression or a limit, is where its bug often is.
 */
export function constantLines(file: string, source: string, names: ReadonlySet<string>): NamedLines[] {
  const python = file.endsWith('.py');
  const declaration = python
    ? /^([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)/
    : /^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=(?!=)/;
  const out: NamedLines[] = [];
  source.split('\n').forEach((text, i) => {
    const name = declaration.exec(text)?.[1];
    if (name && names.has(name) && !WORDS_TOO_COMMON.has(name.toLowerCase())) out.push({ file, name, lines: [i + 1] });
  });
  return out;
}

const CALL_KEYWORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'function',
  'typeof',
  'await',
  'new',
  'super',
  'print',
  'len',
  'isinstance',
  'str',
  'int',
  'not',
  'and',
  'or',
  'in',
  'elif',
  'with',
  'assert',
  'yield',
  'lambda',
]);

function declaredName(text: string, python: boolean): string | null {
  if (python) return /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/.exec(text)?.[1] ?? null;
  const patterns = [
    /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*[<(]/,
    /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)/,
    // A function made by another (`const defuFn = createDefu((…) => {`).
    /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*[A-Za-z_$][\w$.]*\s*\(.*(?:=>|function\b)/,
    /^\s*(?:(?:public|private|protected|static|async|get|set)\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::\s*[^{]+)?\{\s*$/,
    /^\s*([A-Za-z_$][\w$]*)\s*:\s*(?:async\s+)?function\b/,
  ];
  for (const pattern of patterns) {
    const name = pattern.exec(text)?.[1];
    if (name && !/^(if|for|while|switch|catch|return|function)$/.test(name)) return name;
  }
  return null;
}

/** The last line of a block opened on or after `start` by its first `{`, by counting braces (strings ignored roughly). */
function bracedBlockEnd(lines: readonly string[], start: number): number | null {
  let depth = 0;
  let opened = false;
  for (let i = start; i < lines.length && i < start + 400; i++) {
    const code = (lines[i] ?? '').replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""').replace(/\/\/.*$/, '');
    for (const ch of code) {
      if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
    }
    if (opened && depth <= 0) return i;
    // An arrow function with an expression body ends where its statement does.
    if (!opened && i > start && /;\s*$/.test(code)) return i;
  }
  return opened ? null : start;
}

/** The last line indented deeper than the `def` at `start` (blank lines inside kept). */
function indentedBlockEnd(lines: readonly string[], start: number): number {
  const indent = (lines[start] ?? '').search(/\S/);
  let end = start;
  for (let i = start + 1; i < lines.length; i++) {
    const text = lines[i] ?? '';
    if (!text.trim()) continue;
    if (text.search(/\S/) <= indent) break;
    end = i;
  }
  return end;
}
