// Where a JavaScript/TypeScript import specifier leads inside the repository, the way Node and
// TypeScript resolve it: a file with or without its extension (TypeScript sources are imported as
// `./x.js`), a directory through its package.json (`exports`, `module`, `main`) or its index file,
// the package importing itself by its own name, and tsconfig `paths` aliases. A package's entry often
// names a build output that is not in the repository (`dist/index.js`): its source twin under `src/`
// is taken instead.
import { join, normalize } from 'node:path';

export interface JsResolution {
  known: ReadonlySet<string>;
  /** The root package.json's `name`: a test may import the package by it. */
  selfName: string | null;
  /** Each folder's package.json (the root's under ''), outside node_modules. */
  manifests: ReadonlyMap<string, Record<string, unknown>>;
  /** tsconfig `compilerOptions.paths`, with `baseUrl`. */
  aliases: Array<{ pattern: string; targets: string[]; base: string }>;
}

const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.jsx'];
const INDEXES = EXTENSIONS.filter(Boolean).map((e) => `/index${e}`);
const BUILD_FOLDERS = /^(?:\.\/)?(?:dist|lib|build|out|cjs|esm)\//;

export function packageEntries(fromFile: string, spec: string, js: JsResolution): string[] {
  if (spec === '.' || spec === '..' || spec.startsWith('./') || spec.startsWith('../')) {
    const hit = resolvePath(normalize(join(fromFile, '..', spec)), js);
    return hit ? [hit] : [];
  }
  if (js.selfName && (spec === js.selfName || spec.startsWith(`${js.selfName}/`))) {
    const hit = resolvePath(spec === js.selfName ? '.' : spec.slice(js.selfName.length + 1), js);
    return hit ? [hit] : [];
  }
  for (const alias of js.aliases) {
    const star = alias.pattern.indexOf('*');
    const prefix = star < 0 ? alias.pattern : alias.pattern.slice(0, star);
    const suffix = star < 0 ? '' : alias.pattern.slice(star + 1);
    const matches =
      star < 0
        ? spec === alias.pattern
        : spec.startsWith(prefix) && spec.endsWith(suffix) && spec.length >= prefix.length + suffix.length;
    if (!matches) continue;
    const captured = star < 0 ? '' : spec.slice(prefix.length, spec.length - suffix.length);
    for (const target of alias.targets) {
      const hit = resolvePath(normalize(join(alias.base, target.replace('*', captured))), js);
      if (hit) return [hit];
    }
  }
  return [];
}

/** A repository path (a file, a file without its extension, or a folder) to the source file it loads. */
function resolvePath(path: string, js: JsResolution, depth = 0): string | null {
  // `require('../../')` from test/issues/x.js normalizes to `./`: the root, as `.` is.
  const trimmed = path.replace(/\/$/, '');
  const base = trimmed === '.' ? '' : trimmed;
  const stems = [base, base.replace(/\.[cm]?jsx?$/, '')];
  for (const stem of stems) {
    for (const extension of EXTENSIONS) if (stem && js.known.has(stem + extension)) return stem + extension;
  }
  const manifest = js.manifests.get(base);
  if (manifest && depth < 2) {
    for (const entry of manifestEntries(manifest)) {
      const inside = normalize(join(base, entry));
      const hit =
        resolvePath(inside, js, depth + 1) ??
        resolvePath(normalize(join(base, entry.replace(BUILD_FOLDERS, 'src/'))), js, depth + 1);
      if (hit) return hit;
    }
  }
  for (const index of INDEXES) {
    const file = base ? `${base}${index}` : index.slice(1);
    if (js.known.has(file)) return file;
  }
  if (!base && depth === 0) {
    for (const index of INDEXES) if (js.known.has(`src${index}`)) return `src${index}`;
  }
  return null;
}

/** A package's entry points, most specific first: `exports['.']` (any condition), `module`, `main`, `types`. */
function manifestEntries(manifest: Record<string, unknown>): string[] {
  const out: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if ('.' in record) collect(record['.']);
      else for (const [key, inner] of Object.entries(record)) if (!key.startsWith('.')) collect(inner);
    }
  };
  collect(manifest.exports);
  for (const key of ['module', 'main', 'types', 'typings']) collect(manifest[key]);
  // `.d.ts` files are declarations: their source twin (`index.d.ts` → `index.ts`) is what runs.
  return out.map((entry) => entry.replace(/\.d\.([cm]?ts)$/, '.$1'));
}
