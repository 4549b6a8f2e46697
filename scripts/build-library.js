// Builds the library's entry (`npm run build`; npm runs it as `prepare` on `npm ci`, `npm install`
// and when installing fixloop from git): src/lib.ts and what it imports, compiled to dist/ with their
// declarations, and the files the code reads beside itself (Python helpers, prompt templates).
// Node runs TypeScript by type stripping, but never under node_modules, where an installed fixloop is.
// Plain JavaScript: npm may start it on a Node older than 24. `node scripts/build-library.js <dir>`
// builds into another folder (the tests build an installed copy there).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const dist = process.argv[2] ? resolve(process.argv[2]) : join(root, 'dist');

if (!existsSync(tsc)) {
  // A production install (`npm ci --omit=dev`) has no compiler: the CLI and the App need no build.
  console.error(
    'fixloop: library build skipped (typescript is not installed); `npm run build` makes dist/ for `import ... from "fixloop"`',
  );
  process.exit(0);
}

rmSync(dist, { recursive: true, force: true });
// Emitted without a type check (`--noCheck`, ~40 % of the build's time): `npm run typecheck`, part of
// `npm test`, checks every source; a consumer's install should not fail on what only a check finds.
const built = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', dist, '--noCheck'], {
  cwd: root,
  stdio: 'inherit',
});
if (built.status !== 0) process.exit(built.status ?? 1);

/** Every non-TypeScript file under `dir` (the assets the compiled code finds by `import.meta.url`). */
function assets(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__pycache__' ? [] : assets(path);
    return extname(entry.name) === '.ts' ? [] : [path];
  });
}
const src = join(root, 'src');
for (const file of assets(src)) cpSync(file, join(dist, relative(src, file)));
console.error(`fixloop: built the library in ${relative(process.cwd(), dist) || '.'}`);
