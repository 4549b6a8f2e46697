// The library example of docs/library.md, as printed, where a user would run it (issue 28, item 8): fixloop
// packed with `npm pack`, installed from the tarball into a project made by `npm init -y` (a
// `commonjs` project), the example taken from docs/library.md and run on Node 20 and on Node 24; and a
// TypeScript consumer compiled against the installed declarations with `skipLibCheck: false` and no
// `@types/node`; the installed command runs too. One pack, one install. The install is offline: npm's cache holds every dependency
// after `npm ci` (CI runs it first), and a lockfile made from fixloop's own lets npm find them there
// (`npm install --offline <tarball>` alone would ask the registry for the packages' metadata).
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeAll } from '../support/git-fixture.ts';
import { calcRepo, FIX_ADD, treeFingerprint } from '../library/calc-repo.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const NODE_24 = join(ROOT, 'node_modules', 'node', 'bin', 'node');
const NODE_20 = '/usr/bin/node';
const LIBRARY_DOC = readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8');

interface Manifest {
  name: string;
  version: string;
  files: string[];
  dependencies: Record<string, string>;
  bin: Record<string, string>;
  engines: Record<string, string>;
  license: string;
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/** The first ```js block of docs/library.md: the example as printed. */
function printedExample(): string {
  const start = LIBRARY_DOC.indexOf('# fixloop as a library');
  if (start < 0) throw new Error('docs/library.md: no "# fixloop as a library" heading');
  const section = LIBRARY_DOC.slice(start);
  const block = /\n```js\n([\s\S]*?)```\n/.exec(section);
  if (!block?.[1]) throw new Error('docs/library.md: no ```js block in "# fixloop as a library"');
  return block[1];
}

function majorOf(node: string): number | null {
  try {
    return Number(/^v(\d+)/.exec(execFileSync(node, ['--version'], { encoding: 'utf8' }))?.[1]);
  } catch {
    return null;
  }
}

/** npm without the settings of an npm that may be running these tests (`npm test` exports its own). */
function npmEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}

function run(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** fixloop as `npm pack` makes it, from a staged copy of the package (the build goes there, not into this checkout's dist/). */
async function pack(scratch: string): Promise<string> {
  const staged = join(scratch, 'staged');
  mkdirSync(staged);
  for (const entry of ['package.json', 'README.md', ...manifest.files])
    if (existsSync(join(ROOT, entry))) cpSync(join(ROOT, entry), join(staged, entry), { recursive: true });
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-library.js'), join(staged, 'dist')], { cwd: ROOT, stdio: 'pipe' });
  const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', scratch], {
    cwd: staged,
    env: npmEnvironment(),
  });
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  return join(scratch, `${manifest.name}-${manifest.version}.tgz`);
}

/** The project `npm init -y` makes, with fixloop's tarball and its dependencies locked as fixloop's own lockfile has them. */
async function install(project: string, tarball: string): Promise<void> {
  mkdirSync(project);
  const init = await run('npm', ['init', '-y'], { cwd: project, env: npmEnvironment() });
  if (init.code !== 0) throw new Error(`npm init failed: ${init.stderr}`);
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    dependencies?: Record<string, string>;
  };
  const spec = `file:../${tarball.split('/').pop()}`;
  writeFileSync(join(project, 'package.json'), JSON.stringify({ ...pkg, dependencies: { fixloop: spec } }, null, 2));
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const packages: Record<string, unknown> = {
    '': { name: pkg.name, version: pkg.version, dependencies: { fixloop: spec } },
    'node_modules/fixloop': {
      version: manifest.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
      license: manifest.license,
      dependencies: manifest.dependencies,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  // fixloop's dependencies (not its dev dependencies) sit where they sit in its own tree.
  for (const [path, entry] of Object.entries(lock.packages)) if (path && !entry.dev) packages[path] = entry;
  writeFileSync(
    join(project, 'package-lock.json'),
    JSON.stringify({ name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages }, null, 2),
  );
  const installed = await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: project, env: npmEnvironment() });
  if (installed.code !== 0)
    throw new Error(`npm ci --offline failed (is npm's cache warm? run \`npm ci\` in the checkout first): ${installed.stderr}`);
}

const dirs: string[] = [];
let project = '';

describe(
  'the library example of docs/library.md, from the packed tarball installed in a new project',
  { timeout: 300_000 },
  () => {
    beforeAll(async () => {
      const scratch = mkdtempSync(join(tmpdir(), 'fixloop-library-example-'));
      dirs.push(scratch);
      project = join(scratch, 'my-pipeline');
      await install(project, await pack(scratch));
      writeFileSync(join(project, 'fix.mjs'), printedExample());
    }, 600_000);
    afterAll(() => removeAll(dirs));

    it('is the file docs/library.md links, run with the fix it prints, in a commonjs project', () => {
      expect(printedExample()).toBe(readFileSync(join(ROOT, 'examples', 'library', 'fix.mjs'), 'utf8'));
      expect(LIBRARY_DOC).toContain(`node fix.mjs path/to/repo "${FIX_ADD}"`);
      expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))).toMatchObject({ type: 'commonjs' });
      expect(existsSync(join(project, 'node_modules', 'fixloop', 'dist', 'lib.js'))).toBe(true);
    });

    for (const [label, node] of [
      ['Node 24', NODE_24],
      ['Node 20', NODE_20],
    ] as const) {
      it.runIf(majorOf(node) === Number(label.slice(5)))(
        `runs as printed on ${label}: tests_green, the patch on stdout, nothing written but the artifacts`,
        async () => {
          const repository = await calcRepo();
          dirs.push(repository);
          const before = treeFingerprint(repository);
          const home = mkdtempSync(join(tmpdir(), 'fixloop-library-home-'));
          dirs.push(home);
          const artifacts = join(project, 'fixloop-artifacts');
          rmSync(artifacts, { recursive: true, force: true });
          const example = await run(node, ['fix.mjs', repository, FIX_ADD], {
            cwd: project,
            env: { ...process.env, HOME: home },
          });

          expect(example.code, example.stderr).toBe(0);
          const diff = readFileSync(join(artifacts, 'fix-add-1.diff'), 'utf8');
          expect(diff).toContain('+  return a + b;');
          expect(example.stdout).toBe(`${diff}\n`);
          const result = JSON.parse(readFileSync(join(artifacts, 'fix-add', 'result.json'), 'utf8')) as { status: string };
          expect(result.status).toBe('tests_green');
          expect(example.stderr).toContain('fixloop: attempt 1/3 (script): 1 failing');
          expect(example.stderr).not.toMatch(/Cannot use import statement|ERR_UNKNOWN_FILE_EXTENSION|ExperimentalWarning/);
          // The repository, .git included, is as it was; the home folder gained nothing.
          expect(treeFingerprint(repository)).toEqual(before);
          expect(readdirSync(home)).toEqual([]);
        },
      );
    }

    it('installs what the entry needs: exports and types lead into dist/, JavaScript and declarations only, with the files the code reads', () => {
      const installed = JSON.parse(readFileSync(join(project, 'node_modules', 'fixloop', 'package.json'), 'utf8')) as {
        exports: Record<string, { types: string; default: string }>;
        types: string;
      };
      expect(installed.exports['.']).toEqual({ types: './dist/lib.d.ts', default: './dist/lib.js' });
      expect(installed.types).toBe('./dist/lib.d.ts');
      const built = readdirSync(join(project, 'node_modules', 'fixloop', 'dist'), { recursive: true, encoding: 'utf8' });
      expect(built).toEqual(
        expect.arrayContaining([
          'lib.js',
          'lib.d.ts',
          'cli.js',
          'verify/harness_tampering.py',
          'engines/prompt/templates/implement.md',
          'engines/repair/templates/python/mutate.py',
          // A script's sibling modules, and a preload's parts, beside it.
          'verify/harness_finder.py',
          'verify/harness_bindings.py',
          'engines/repair/templates/python/mutate_templates.py',
          'engines/repair/templates/python/mutate_candidates.py',
          'engines/repair/templates/python/mutate_source.py',
          'engines/repair/templates/python/mutate_swaps.py',
          'engines/repair/localize/spectra-hook/spectra-preload.cjs',
          'engines/repair/localize/spectra-hook/spectra-tests.cjs',
          // The module the spectra hook shares with the runtime guard, where the hook requires it.
          'runners/node-guard/test-events/test-events.cjs',
          'runners/node-guard/test-events/vitest-events.cjs',
        ]),
      );
      expect(built.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    });

    it.runIf(majorOf(NODE_24) === 24)(
      'runs the installed command too: under node_modules its bin takes the built JavaScript',
      async () => {
        const repository = await calcRepo();
        dirs.push(repository);
        const bin = join(project, 'node_modules', 'fixloop', 'bin', 'fixloop.js');
        const version = await run(NODE_24, [bin, '--version'], { cwd: project });
        expect(version).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
        const out = mkdtempSync(join(tmpdir(), 'fixloop-installed-cli-'));
        dirs.push(out);
        const cli = await run(
          NODE_24,
          [bin, 'run', repository, '--test', 'node --test', '--engine', 'script', '--script', FIX_ADD, '--json', '--out', out],
          { cwd: project },
        );
        expect(cli.code, cli.stderr).toBe(0);
        expect(JSON.parse(cli.stdout)).toMatchObject({ status: 'tests_green' });
      },
    );

    it('type-checks a TypeScript consumer against the installed declarations, with skipLibCheck off and no @types/node', async () => {
      expect(existsSync(join(project, 'node_modules', '@types', 'node'))).toBe(false);
      const consumer = join(project, 'consumer');
      mkdirSync(consumer);
      writeFileSync(
        join(consumer, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'es2022',
            module: 'nodenext',
            strict: true,
            exactOptionalPropertyTypes: true,
            noEmit: true,
            skipLibCheck: false,
          },
        }),
      );
      writeFileSync(
        join(consumer, 'pipeline.ts'),
        [
          "import { run, FixloopInputError, type RunOptions, type RunOutcome, type RunResult, type SandboxChoice } from 'fixloop';",
          '',
          'export async function greenPatch(repository: string, sandbox: SandboxChoice = "auto"): Promise<string | null> {',
          "  const options: RunOptions = { taskId: 'fix-add', testCommand: 'node --test', attemptLimit: 3, sandbox, onProgress: (p) => void p.message };",
          '  try {',
          '    const outcome: RunOutcome = await run(repository, options);',
          '    const result: RunResult = outcome.result;',
          "    return outcome.status === 'tests_green' ? outcome.patch : result.headline;",
          '  } catch (error) {',
          '    if (error instanceof FixloopInputError) return `${error.code}: ${error.message}`;',
          '    throw error;',
          '  }',
          '}',
          '',
        ].join('\n'),
      );
      // A misspelt option must be refused: the declarations are really read, not skipped.
      writeFileSync(
        join(consumer, 'wrong.ts'),
        "import { run } from 'fixloop';\nexport const wrong = run('.', { taskId: 'x', testCommand: 'npm test', attemptLimt: 3 });\n",
      );
      const checked = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumer });
      const errors = checked.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^wrong\.ts\(2,.*'attemptLimt' does not exist in type 'RunOptions'/);
    });
  },
);
