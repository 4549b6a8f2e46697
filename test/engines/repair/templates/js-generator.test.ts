import { describe, expect, it } from 'vitest';
import { applyEdits, GenerationError, type Candidate, type TemplateId } from '../../../../src/engines/repair/candidate.ts';
import { JS_TEMPLATES, jsGenerator } from '../../../../src/engines/repair/templates/js/js-generator.ts';

async function candidates(source: string, lines: number[], file = 'src/a.js'): Promise<Candidate[]> {
  return jsGenerator.generate(file, source, new Set(lines));
}

/** The fixed sources the candidates of one template produce. */
async function results(source: string, lines: number[], template: TemplateId, file = 'src/a.js'): Promise<string[]> {
  return (await candidates(source, lines, file)).filter((c) => c.template === template).map((c) => applyEdits(source, c.edits));
}

describe('jsGenerator templates', () => {
  it('replaces relational, equality, logical, arithmetic and bitwise operators', async () => {
    expect(await results('export const f = (a, b) => a < b;\n', [1], 'relational-operator')).toContain(
      'export const f = (a, b) => a <= b;\n',
    );
    expect(await results('export const f = (a, b) => a === b;\n', [1], 'equality-operator')).toContain(
      'export const f = (a, b) => a !== b;\n',
    );
    expect(await results('export const f = (a, b) => a && b;\n', [1], 'logical-operator')).toContain(
      'export const f = (a, b) => a || b;\n',
    );
    expect(await results('export const f = (a, b) => a - b;\n', [1], 'arithmetic-operator')).toContain(
      'export const f = (a, b) => a + b;\n',
    );
    expect(await results('let t = 0;\nt -= 2;\n', [2], 'arithmetic-operator')).toContain('let t = 0;\nt += 2;\n');
    expect(await results('export const f = (a, b) => a & b;\n', [1], 'bitwise-operator')).toContain(
      'export const f = (a, b) => a | b;\n',
    );
  });

  it('shifts literals, indices, slice bounds, lengths and loop bounds by one', async () => {
    expect(await results('export const n = 10;\n', [1], 'off-by-one-literal')).toEqual([
      'export const n = 11;\n',
      'export const n = 9;\n',
    ]);
    expect(await results('export const last = (xs, i) => xs[i];\n', [1], 'off-by-one-bound')).toContain(
      'export const last = (xs, i) => xs[i - 1];\n',
    );
    expect(await results('export const head = (s, n) => s.slice(0, n);\n', [1], 'off-by-one-bound')).toContain(
      'export const head = (s, n) => s.slice(0, n + 1);\n',
    );
    expect(await results('export const f = (xs, i) => i < xs.length;\n', [1], 'off-by-one-bound')).toContain(
      'export const f = (xs, i) => i < xs.length - 1;\n',
    );
    expect(await results('export const f = (n) => n + 1;\n', [1], 'off-by-one-bound')).toContain('export const f = (n) => n;\n');
    // An adjustment already written is dropped, not compensated (`n - 1 + 1` is the same program, a worse patch).
    const trimmed = await results('export const head = (s, n) => s.slice(0, n - 1);\n', [1], 'off-by-one-bound');
    expect(trimmed).toContain('export const head = (s, n) => s.slice(0, n);\n');
    expect(trimmed).toContain('export const head = (s, n) => s.slice(0, n - 1 - 1);\n');
    expect(trimmed).not.toContain('export const head = (s, n) => s.slice(0, n - 1 + 1);\n');
    const loop =
      'export function sum(xs) {\n  let s = 0;\n  for (let i = 0; i < xs.length - 1; i++) s += xs[i];\n  return s;\n}\n';
    expect(await results(loop, [3], 'loop-bound')).toContain(loop.replace('i < xs.length - 1', 'i < xs.length - 1 + 1'));
  });

  it('negates conditions and drops one side of && / ||', async () => {
    const src = 'export function f(a, b) {\n  if (a > 0 && b > 0) return 1;\n  return 0;\n}\n';
    expect(await results(src, [2], 'negate-condition')).toEqual([src.replace('(a > 0 && b > 0)', '(!(a > 0 && b > 0))')]);
    expect(await results(src, [2], 'drop-conjunct')).toEqual([
      src.replace('a > 0 && b > 0', 'a > 0'),
      src.replace('a > 0 && b > 0', 'b > 0'),
    ]);
    expect(await results('export const f = (ok) => (!ok ? 1 : 2);\n', [1], 'negate-condition')).toEqual([
      'export const f = (ok) => (ok ? 1 : 2);\n',
    ]);
  });

  it('regroups a condition that mixes && and || without parentheses, inserting only the parentheses', async () => {
    const src =
      'export function quoted(s, strict) {\n  if (!strict &&\n      OLD.includes(s) ||\n      BASE60.test(s)) return true;\n  return false;\n}\n';
    expect(await results(src, [2], 'regroup-logic')).toEqual([
      src.replace('OLD.includes(s) ||\n      BASE60.test(s))', '(OLD.includes(s) ||\n      BASE60.test(s)))'),
    ]);
    expect(await results('export const f = (a, b, c) => a || b && c;\n', [1], 'regroup-logic')).toEqual([
      'export const f = (a, b, c) => (a || b) && c;\n',
    ]);
    // Grouping already written is the author's: left alone.
    expect(await results('export const f = (a, b, c) => (a && b) || c;\n', [1], 'regroup-logic')).toEqual([]);
    expect(await results('export const f = (a, b, c) => a && (b) || c;\n', [1], 'regroup-logic')).toEqual([]);
  });

  it('leaves empty items out of a join, on a line of its own where the chain has one per link', async () => {
    const chain = 'export function stringify(q) {\n  return Object.keys(q)\n    .map((k) => enc(k, q[k]))\n    .join("&");\n}\n';
    expect(await results(chain, [2], 'filter-empty')).toEqual([chain.replace('    .join', '    .filter(Boolean)\n    .join')]);
    expect(await results('export const f = (xs) => xs.map(String).join(",");\n', [1], 'filter-empty')).toEqual([
      'export const f = (xs) => xs.map(String).filter(Boolean).join(",");\n',
    ]);
    // Filtered already, or a path's join: nothing to leave out.
    expect(await results('export const f = (xs) => xs.filter(Boolean).join(",");\n', [1], 'filter-empty')).toEqual([]);
    expect(
      await results('import path from "node:path";\nexport const f = (a) => path.join(a, "b");\n', [2], 'filter-empty'),
    ).toEqual([]);
  });

  it('adds to a chain a link the same file uses elsewhere with the same method, whose arguments mean the same anywhere', async () => {
    const src = [
      'const SLASH_RE = /\\//g;',
      'const HASH_RE = /#/g;',
      'export const encodePath = (t) => enc(t).replace(HASH_RE, "%23").replace(SLASH_RE, "%2F");',
      'export function encodeQuery(t, local) {',
      '  return enc(t)',
      '    .replace(HASH_RE, "%23");',
      '}',
      'export const other = (t, local) => t.replace(local, "x");',
      '',
    ].join('\n');
    // Only the link the chain lacks; `local` means something else in another function: not borrowed.
    expect(await results(src, [5], 'extend-chain')).toEqual([
      src.replace('    .replace(HASH_RE, "%23");', '    .replace(HASH_RE, "%23")\n    .replace(SLASH_RE, "%2F");'),
    ]);
    // A chain that holds every such link already gets none; on one line, the link goes on the same line.
    expect(await results(src, [3], 'extend-chain')).toEqual([]);
    const short = 'const A = 1;\nexport const f = (xs) => xs.concat(A);\nexport const g = (xs) => xs.slice(0).concat(2);\n';
    expect(await results(short, [3], 'extend-chain')).toEqual([short.replace('.concat(2);', '.concat(2).concat(A);')]);
  });

  it('swaps arguments and non-commutative operands, keeping precedence', async () => {
    expect(await results('export const f = (a, b) => Math.pow(a, b);\n', [1], 'swap-arguments')).toEqual([
      'export const f = (a, b) => Math.pow(b, a);\n',
    ]);
    expect(await results('export const f = (a, b, c) => a - (b + c);\n', [1], 'swap-operands')).toContain(
      'export const f = (a, b, c) => (b + c) - (a);\n',
    );
  });

  it('replaces an identifier by another of the same kind in scope', async () => {
    const src = 'export function area(width, height) {\n  const w = width;\n  return w * width;\n}\n';
    const fixed = await results(src, [3], 'replace-identifier');
    expect(fixed).toContain(src.replace('w * width', 'w * height'));
    // Property names are not identifiers to replace.
    expect(await results('export const f = (o, p) => o.size;\n', [1], 'replace-identifier')).not.toContain(
      'export const f = (o, p) => o.p;\n',
    );
  });

  it('never replaces an identifier by a name imported only as a type', async () => {
    const src = [
      "import type { Node } from './types';",
      "import { type Options, LIMIT } from './types';",
      'export const f = (node: Node, opts: Options, next: Node) => next !== undefined;',
      '',
    ].join('\n');
    const fixed = await results(src, [3], 'replace-identifier', 'src/a.ts');
    expect(fixed).toContain(src.replace('next !==', 'LIMIT !=='));
    expect(fixed).toContain(src.replace('next !==', 'node !=='));
    for (const typeOnly of ['Node', 'Options']) expect(fixed).not.toContain(src.replace('next !==', `${typeOnly} !==`));
  });

  it('changes return values, adds null guards and optional chaining', async () => {
    const src = 'export function name(user) {\n  return user.name;\n}\n';
    const guarded = await results(src, [2], 'add-null-guard');
    expect(guarded).toContain('export function name(user) {\n  if (user == null) return undefined;\n  return user.name;\n}\n');
    expect(guarded).toContain('export function name(user) {\n  return user?.name;\n}\n');
    expect(await results('export const ok = () => true;\n', [1], 'change-return-value')).toEqual([
      'export const ok = () => false;\n',
    ]);
  });

  it('swaps min/max, some/every and methods with similar names', async () => {
    expect(await results('export const f = (a, b) => Math.min(a, b);\n', [1], 'min-max')).toContain(
      'export const f = (a, b) => Math.max(a, b);\n',
    );
    expect(await results('export const f = (xs) => xs.some((x) => x > 0);\n', [1], 'any-all')).toContain(
      'export const f = (xs) => xs.every((x) => x > 0);\n',
    );
    expect(await results('export const f = (s) => s.startsWith("x");\n', [1], 'change-method')).toContain(
      'export const f = (s) => s.endsWith("x");\n',
    );
  });

  it("methods named like Object.prototype's own (constructor, toString) are methods like any other", async () => {
    const src = 'export const f = (x) => x.constructor(1) + x.toString() + x.hasOwnProperty("a");\n';
    expect((await candidates(src, [1])).length).toBeGreaterThan(0);
  });

  it('makes the fix kinds of the real corpus: normalized strings, typos, conjuncts, presence and type checks, deleted calls', async () => {
    const compare = "export const isAs = (token) => token.value === 'AS';\n";
    expect(await results(compare, [1], 'normalize-string')).toContain(
      "export const isAs = (token) => token.value.toUpperCase() === 'AS';\n",
    );
    const ret = 'export function keyword(val) {\n  return val;\n}\n';
    expect(await results(ret, [2], 'normalize-string')).toContain(
      'export function keyword(val) {\n  return val.toLowerCase();\n}\n',
    );
    const joined = "export const wrap = (line, i) => (i > 0 ? '  ' : '') + line;\n";
    expect(await results(joined, [1], 'normalize-string')).toContain(
      "export const wrap = (line, i) => (i > 0 ? '  ' : '') + line.trimEnd();\n",
    );
    const typo = 'set("background-attachemnt", v);\nset("background-attachment", w);\n';
    expect(await results(typo, [1], 'typo-literal')).toEqual([typo.replace('attachemnt', 'attachment')]);
    const conjunct =
      'export function parse(unknown) {\n  if (this.defaultExecutable) run();\n  if (unknown.length > 0) fail();\n}\n';
    expect(await results(conjunct, [3], 'add-conjunct')).toContain(
      conjunct.replace('(unknown.length > 0)', '(unknown.length > 0 && !this.defaultExecutable)'),
    );
    const presence = 'export function f(object, key) {\n  if (object[key]) return 1;\n}\n';
    expect(await results(presence, [2], 'presence-check')).toContain(
      presence.replace('(object[key])', '(object[key] !== undefined)'),
    );
    const type = "export const f = (val) => typeof val === 'number';\n";
    expect(await results(type, [1], 'widen-type-check')).toContain(
      "export const f = (val) => (typeof val === 'number' || typeof val === 'boolean');\n",
    );
    // The type the failing tests' names show comes first, marked as the tests' own text.
    const shown = (await jsGenerator.generate('src/a.js', type, new Set([1]), { valueTypes: ['boolean'] })).filter(
      (c) => c.template === 'widen-type-check',
    );
    expect(shown.map((c) => [applyEdits(type, c.edits).includes("'boolean'"), c.fromTests ?? false]).slice(0, 2)).toEqual([
      [true, true],
      [false, false],
    ]);
    // Output that differs only by a trailing blank: the trimming normalizations first, as the tests' own.
    const wrap = "export const pad = (line, i) => (i > 0 ? '  ' : '') + line;\n";
    const trims = (await jsGenerator.generate('src/a.js', wrap, new Set([1]), { outputDifferences: ['whitespace'] })).filter(
      (c) => c.template === 'normalize-string',
    );
    expect(trims.map((c) => [c.edits[0]?.text, c.fromTests ?? false])).toEqual([
      ['.trim()', true],
      ['.trimEnd()', true],
      ['.toLowerCase()', false],
      ['.toUpperCase()', false],
    ]);
    const extra = "export function help(desc) {\n  desc.push('');\n  return desc;\n}\n";
    expect(await results(extra, [2], 'delete-statement')).toEqual(['export function help(desc) {\n  \n  return desc;\n}\n']);
  });

  it('removes a declaration whose name nothing reads, with its line, when computing its value does nothing', async () => {
    const source = 'const unused = 1;\nlet x = 2;\nexport const y = x;\n';
    expect(await results(source, [1], 'remove-unused-declaration')).toEqual(['let x = 2;\nexport const y = x;\n']);
    // Read elsewhere, exported, destructured, or computed by a call: left alone.
    expect(await results(source, [2], 'remove-unused-declaration')).toEqual([]);
    expect(await results('export const unused = 1;\n', [1], 'remove-unused-declaration')).toEqual([]);
    expect(await results('const { a } = b;\n', [1], 'remove-unused-declaration')).toEqual([]);
    expect(await results('const started = start();\n', [1], 'remove-unused-declaration')).toEqual([]);
    expect(
      await results('const t: number = 1 as number;\nexport type T = typeof t;\n', [1], 'remove-unused-declaration', 'src/a.ts'),
    ).toEqual([]);
    const inside = 'export function f() {\n  const names = [1, "a", () => 2], seen = {};\n  return 3;\n}\n';
    expect(await results(inside, [2], 'remove-unused-declaration')).toEqual(['export function f() {\n  return 3;\n}\n']);
    // Opening the file, or between blank lines, it takes one blank line with it.
    expect(await results('const unused = 1;\n\nexport const y = 2;\n', [1], 'remove-unused-declaration')).toEqual([
      'export const y = 2;\n',
    ]);
    expect(await results('a();\n\nconst unused = 1;\n\nb();\n', [3], 'remove-unused-declaration')).toEqual(['a();\n\nb();\n']);
  });

  it('edits one piece of a regular expression: a flag, an anchor, a quantifier, a class member too many or too few', async () => {
    const host = 'export const split = (s) => s.match(/([^/?]*)(.*)?/);\n';
    const hosts = await results(host, [1], 'regex-literal');
    expect(hosts).toContain(host.replace('[^/?]', '[^/?#]'));
    expect(hosts).toContain(host.replace('[^/?]', '[^?]'));
    expect(hosts).toContain(host.replace('(.*)?/', '(.*)/'));
    expect(hosts).toContain(host.replace('(.*)?/', '(.*)?$/'));
    const protocol = 'export const PROTOCOL = /^\\w+:(\\/\\/)?/;\n';
    expect(await results(protocol, [1], 'regex-literal')).toContain(protocol.replace('\\w+', '\\w{2,}'));
    const scheme = 'export const SCHEME = /^(blob:|data:)(.*)/;\n';
    expect(await results(scheme, [1], 'regex-literal')).toContain(scheme.replace(')(.*)/', ')(.*)/i'));
    // Escapes stay whole: `\?` is a character, not a quantifier; every candidate is a valid pattern.
    const escaped = 'export const Q = /a\\?b[\\]x]/g;\n';
    const out = await results(escaped, [1], 'regex-literal');
    expect(out).not.toContain(escaped.replace('\\?', '\\'));
    expect(out).toContain(escaped.replace('[\\]x]', '[x]'));
    for (const fixed of out) expect(() => new RegExp(/\/(.*)\/([a-z]*);/.exec(fixed)?.[1] ?? '')).not.toThrow();
  });

  it('adds a condition on an option the failing tests pass, read from the options object the file reads', async () => {
    const scan = [
      'export function scan(input, options) {',
      '  const opts = options || {};',
      '  if (opts.unescape) input = input.trim();',
      "  if (input[0] === '!' && input.length > 1) return { negated: true };",
      '  return { negated: false };',
      '}',
      '',
    ].join('\n');
    const withOptions = (await jsGenerator.generate('src/scan.js', scan, new Set([4]), { optionNames: ['nonegate'] }))
      .filter((c) => c.template === 'honor-option')
      .map((c) => applyEdits(scan, c.edits));
    expect(withOptions).toEqual([
      scan.replace("(input[0] === '!'", "(!opts.nonegate && input[0] === '!'"),
      scan.replace("(input[0] === '!'", "(opts.nonegate && input[0] === '!'"),
    ]);
    // Without option names from the tests, nothing: the template does not guess names.
    expect(await results(scan, [4], 'honor-option', 'src/scan.js')).toEqual([]);
  });

  it('passes the options in scope on to a callee, in another file, whose options parameter the call leaves out', async () => {
    const split = [
      'exports.basename = (path, { windows } = {}) => {',
      "  const segs = path.split(windows ? /[\\\\/]/ : '/');",
      '  return segs[segs.length - 1];',
      '};',
      '',
    ].join('\n');
    const match = [
      "const utils = require('./utils');",
      "const path = require('path');",
      'exports.matchBase = (input, glob, options) => {',
      '  const opts = options || {};',
      '  return glob.test(utils.basename(input)) || utils.basename(input, opts) === path.basename(glob.source);',
      '};',
      '',
    ].join('\n');
    const sources = new Map([
      ['lib/utils.js', split],
      ['lib/match.js', match],
    ]);
    const forwarded = async (optionNames: string[]) =>
      (await jsGenerator.generate('lib/match.js', match, new Set([5]), { optionNames, sources }))
        .filter((c) => c.template === 'honor-option')
        .map((c) => applyEdits(match, c.edits));
    // The call that leaves the parameter out gets each options object in scope; the one that passes
    // it, none; nor does Node's `path.basename`, which has the same name.
    expect(await forwarded(['windows'])).toEqual([
      match.replace('glob.test(utils.basename(input))', 'glob.test(utils.basename(input, options))'),
      match.replace('glob.test(utils.basename(input))', 'glob.test(utils.basename(input, opts))'),
    ]);
    // The parameter destructures options the failing tests do not pass: nothing to forward.
    expect(await forwarded(['nocase'])).toEqual([]);
    // Without the callee's file, nothing is known of its parameters.
    expect(
      (await jsGenerator.generate('lib/match.js', match, new Set([5]), { optionNames: ['windows'] })).filter(
        (c) => c.template === 'honor-option',
      ),
    ).toEqual([]);
    // A plain `options` parameter takes the options whenever the failing tests pass some; a name out of scope is never passed.
    const plain = [
      'function render(text, options) { return options && options.upper ? text.toUpperCase() : text; }',
      'function greet(name) { return render(`hi ${name}`); }',
      'function shout(name, opts) { return render(`hey ${name}`); }',
      '',
    ].join('\n');
    const plainResults = (await jsGenerator.generate('src/r.js', plain, new Set([2, 3]), { optionNames: ['upper'] }))
      .filter((c) => c.template === 'honor-option')
      .map((c) => applyEdits(plain, c.edits));
    expect(plainResults).toEqual([plain.replace('render(`hey ${name}`)', 'render(`hey ${name}`, opts)')]);
  });

  it('handles TypeScript syntax', async () => {
    const src =
      'export function clamp<T extends number>(x: T, lo: number, hi: number): number {\n  return x < lo ? lo : (x as number) > hi ? hi : x;\n}\n';
    const out = await candidates(src, [2], 'src/clamp.ts');
    expect(out.length).toBeGreaterThan(5);
    for (const c of out) expect(jsGenerator.parses?.('src/clamp.ts', applyEdits(src, c.edits))).toBe(true);
    expect(out.map((c) => applyEdits(src, c.edits))).toContain(src.replace('x < lo', 'x <= lo'));
  });

  it('touches only the requested lines, is deterministic, and skips a file that does not parse', async () => {
    const src = 'export const a = (x) => x < 1;\nexport const b = (x) => x < 2;\n';
    const out = await candidates(src, [2]);
    expect(out.every((c) => c.line === 2)).toBe(true);
    expect(JSON.stringify(await candidates(src, [2]))).toBe(JSON.stringify(out));
    expect(await candidates('export const = ;\n', [1])).toEqual([]);
  });

  it('keeps the other templates’ candidates when one template fails, and says so', async () => {
    const failing = function brokenTemplate(): never {
      throw new TypeError("Cannot read properties of undefined (reading 'includes')");
    };
    JS_TEMPLATES.push(failing);
    try {
      const src = 'export const f = (a, b) => a < b;\n';
      const error = await jsGenerator.generate('src/a.js', src, new Set([1])).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(GenerationError);
      expect((error as GenerationError).message).toMatch(
        /^a repair template failed \d+ time\(s\) \(brokenTemplate on the \w+ at src\/a\.js:1: Cannot read properties/,
      );
      expect((error as GenerationError).candidates.map((c) => applyEdits(src, c.edits))).toContain(
        'export const f = (a, b) => a <= b;\n',
      );
    } finally {
      JS_TEMPLATES.pop();
    }
  });
});
