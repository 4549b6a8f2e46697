// The judge and the repair engine parse JavaScript and TypeScript with one configuration
// (src/core/js-parse.ts): on files that trip one parser setting or another, both give the same
// parse/no-parse verdict, and the verdict is the one intended.
import { describe, expect, it } from 'vitest';
import { JS_SOURCE, parseJsProgram } from '../../src/core/js-parse.ts';
import { parseJs } from '../../src/core/js-tree.ts';
import { jsGenerator } from '../../src/engines/repair/templates/js/js-generator.ts';

const TRICKY: Array<{ name: string; file: string; source: string; parses: boolean }> = [
  {
    name: 'TypeScript with decorators',
    file: 'src/service.ts',
    source: '@injectable()\nexport class Service {\n  @memo get total(): number { return 1; }\n}\n',
    parses: true,
  },
  {
    name: 'TypeScript with a decorator after export',
    file: 'src/service.mts',
    source: 'export @sealed class A {}\n',
    parses: true,
  },
  { name: 'TypeScript with a type assertion', file: 'src/cast.ts', source: 'const n = <number>value;\n', parses: true },
  {
    name: 'JSX in a .js file',
    file: 'src/button.js',
    source: 'export const Button = ({ label }) => <button className="b">{label}</button>;\n',
    parses: true,
  },
  {
    name: 'JSX in a .tsx file',
    file: 'src/button.tsx',
    source: 'export const B = (p: { n: number }) => <b>{p.n as number}</b>;\n',
    parses: true,
  },
  {
    name: 'a .mjs with top-level await',
    file: 'src/config.mjs',
    source: "const text = await readFile('x.json', 'utf8');\nexport default JSON.parse(text);\n",
    parses: true,
  },
  {
    name: 'a CommonJS file with return at the top level',
    file: 'src/plugin.cjs',
    source: 'if (!process.env.ON) return;\nmodule.exports = { on: true };\n',
    parses: true,
  },
  {
    name: 'a sloppy script (with, octal) that no module allows',
    file: 'lib/old.js',
    source: 'var x = 010;\nwith (Math) { x = max(x, 1); }\n',
    parses: true,
  },
  {
    name: 'a recoverable error (a duplicate declaration)',
    file: 'src/dup.js',
    source: 'const a = 1;\nconst a = 2;\n',
    parses: true,
  },
  {
    name: 'a file that does not parse',
    file: 'src/broken.js',
    source: 'function total(items {\n  return items.length;\n}\n',
    parses: false,
  },
  { name: 'JSX in a .ts file', file: 'src/view.ts', source: 'const v = <div>{x}</div>;\n', parses: false },
  { name: 'a TypeScript annotation without a type', file: 'src/bad.ts', source: 'let x: = 1;\n', parses: false },
  { name: 'a mix of ?? and || without parentheses', file: 'src/mix.js', source: 'const x = a ?? b || c;\n', parses: false },
];

describe('one JavaScript parse configuration for the judge and the repair engine', () => {
  for (const { name, file, source, parses } of TRICKY) {
    it(`${name}: ${parses ? 'parses' : 'does not parse'} for both`, () => {
      expect(JS_SOURCE.test(file)).toBe(true);
      expect(parseJsProgram(file, source) !== null).toBe(parses);
      expect(parseJs(file, source) !== null).toBe(parses);
      expect(jsGenerator.parses?.(file, source)).toBe(parses);
    });
  }
});
