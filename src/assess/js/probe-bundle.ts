// The probe runtime as one line of code, for the top of every instrumented file. The code under test
// may run under any runner, transformer or loader, in ESM or CommonJS, in a sandbox that sees only
// the checkout: an import of fixloop's own file could fail to resolve, or be transformed, mocked or
// cached per test file. Inlined, the runtime needs nothing but the file itself. Its text goes in as a
// string literal, compiled once per realm with `new Function`, so that comments and line breaks in
// the runtime's sources never change the instrumented file's line numbers.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ChangeValues } from '../change-values.ts';

/** The runtime's sources, each one after those it requires; probe-runtime.cjs is the entry. */
const PIECES = [
  'probe-text.cjs',
  'probe-canon.cjs',
  'probe-plain.cjs',
  'probe-change-inputs.cjs',
  'probe-inputs.cjs',
  'probe-held.cjs',
  'probe-fields.cjs',
  'probe-records.cjs',
  'probe-replay.cjs',
  'probe-caller.cjs',
  'probe-bounded.cjs',
  'probe-generated.cjs',
  'probe-born.cjs',
  'probe-base.cjs',
  'probe-call.cjs',
  'probe-generator.cjs',
  'probe-runtime.cjs',
];

/** The names the header declares in every instrumented file; long enough never to meet a project's own. */
export const PROBE_FUNCTION = '__fixloop_p';
const PROBE_HANDLE = '__fixloop_h';
const PROBE_FS = '__fixloop_fs';

let cached: { body: string; key: string } | undefined;

/**
 * The body of a function that returns the runtime's `install`: the pieces as CommonJS modules with a
 * `require` of their own. The key on globalThis names the runtime's version, so two fixloop versions
 * never share a runtime.
 */
export function runtimeBundle(): { body: string; key: string } {
  if (cached) return cached;
  const modules = PIECES.map((name) => {
    const source = readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
    return `${JSON.stringify(`./${name}`)}: function (module, exports, require) {\n${source}\n}`;
  });
  const body = [
    'var defined = {',
    modules.join(',\n'),
    '};',
    'var loaded = {};',
    'function load(name) { var m = loaded[name]; if (!m) { m = loaded[name] = { exports: {} }; defined[name](m, m.exports, load); } return m.exports; }',
    'return load("./probe-runtime.cjs").install;',
  ].join('\n');
  const key = `__fixloop_probe_${createHash('sha256').update(body).digest('hex').slice(0, 16)}`;
  cached = { body, key };
  return cached;
}

export interface HeaderOptions {
  /** The file has imports or exports: node:fs comes from a static import where Node has no getBuiltinModule. */
  module: boolean;
  /** Type annotations, so a type-checking transformer sees no implicit `any`. */
  typescript: boolean;
  recordFile: string;
  /** What the changed lines name, for the generated inputs (change-values.ts). */
  values?: ChangeValues | undefined;
}

/**
 * One line: a hoisted function `__fixloop_p()` that returns this file's probe, installing the runtime
 * on globalThis the first time in a realm. A function declaration, so a probed function called before
 * the file's first line has run (an import cycle) still finds it. If anything fails, the probe it
 * returns just runs the original body.
 */
export function probeHeader(options: HeaderOptions): string {
  const { body, key } = runtimeBundle();
  const any = options.typescript ? ': any' : '';
  // Not `require("node:fs")` as a plain call: a build step that bundles the sources rewrites those
  // (cssstyle's generator made it `require("../node:fs")`, and the bundle failed to load).
  const fsFallback = options.module ? PROBE_FS : 'typeof require === "function" ? [require][0]("node:fs") : null';
  const mod = options.module ? 'void 0' : 'typeof module === "object" && module ? module : void 0';
  // Unused parameters start with `_`: a project's `noUnusedParameters` allows those, and a type-checking
  // transformer (ts-jest) refuses a file with an error, so the tests importing it would not run.
  const fallback = `{ c: function (_i${any}, _t${any}, a${any}, _s${any}, _f${any}, b${any}) { return b.apply(void 0, a); }, y: function (_i${any}, t${any}, a${any}, _f${any}, g${any}) { return g.apply(t, a); }, l: function () {}, k: function (f${any}, n${any}, m${any}) { try { Object.defineProperty(f, "length", { value: n, configurable: true }); Object.defineProperty(f, "name", { value: m, configurable: true }); } catch { } return f; } }`;
  return [
    options.module ? `import * as ${PROBE_FS} from "node:fs";` : '',
    `var ${PROBE_HANDLE}${any};`,
    `function ${PROBE_FUNCTION}()${any} {`,
    `if (${PROBE_HANDLE}) return ${PROBE_HANDLE};`,
    `try { var g${any} = globalThis, k = ${JSON.stringify(key)}, r = g[k];`,
    'if (!r) { var P = g.process, b = P && typeof P.getBuiltinModule === "function" ? function (n' +
      (options.typescript ? ': string' : '') +
      ') { return P.getBuiltinModule(n); } : null;',
    `var fs = b ? b("node:fs") : ${fsFallback};`,
    `r = new Function(${JSON.stringify(body)})()(fs, g, b);`,
    'Object.defineProperty(g, k, { value: r, configurable: true }); }',
    `${PROBE_HANDLE} = r.file(${JSON.stringify(options.recordFile)}, ${mod}, ${JSON.stringify(options.values ?? null)}); }`,
    `catch { ${PROBE_HANDLE} = ${fallback}; }`,
    `return ${PROBE_HANDLE}; }`,
  ].join(' ');
}
