// The README's library example (examples/library/fix.ts), byte for byte, in a project that installed
// fixloop as npm does from a tarball or a git URL: real files under node_modules, where Node strips no
// types, so the package's `exports` must lead to the built JavaScript and its declarations.
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeAll } from '../support/git-fixture.ts';
import { calcRepo, FIX_ADD, treeFingerprint } from './calc-repo.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = join(ROOT, 'examples/library/fix.ts');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const CONSUMER_FILES = ['fix.ts', 'node_modules', 'package.json', 'tsconfig.json'];

const dirs: string[] = [];
let consumer = '';
let installed = '';

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'fixloop-consumer-'));
  dirs.push(root);
  consumer = join(root, 'project');
  installed = join(consumer, 'node_modules', 'fixloop');
  mkdirSync(installed, { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(installed, 'package.json'));
  cpSync(join(ROOT, 'bin'), join(installed, 'bin'), { recursive: true });
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-library.js'), join(installed, 'dist')], { cwd: ROOT, stdio: 'pipe' });
  // fixloop's own dependencies, where npm would have put them beside it; and Node's types for tsc.
  symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules/@types'), join(consumer, 'node_modules/@types'));
  writeFileSync(join(consumer, 'package.json'), '{ "name": "my-pipeline", "private": true, "type": "module" }\n');
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'es2024', module: 'nodenext', strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: true, types: ['node'] } }));
  copyFileSync(EXAMPLE, join(consumer, 'fix.ts'));
}, 180_000);
afterAll(() => removeAll(dirs));

function node(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { ...options, encoding: 'utf8' }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
  });
}

describe('the library example, from a project that installed fixloop', () => {
  it('runs as printed: tests_green, the patch on stdout, fix-add-1.diff, and nothing written but the artifacts', async () => {
    const project = await calcRepo();
    dirs.push(project);
    const before = treeFingerprint(project);
    const scratch = await mkdtemp(join(tmpdir(), 'fixloop-consumer-env-'));
    dirs.push(scratch);
    const home = join(scratch, 'home');
    const tmp = join(scratch, 'tmp');
    mkdirSync(home);
    mkdirSync(tmp);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, TMPDIR: tmp };
    delete env.XDG_CACHE_HOME;
    delete env.FIXLOOP_CACHE_DIR;

    const run = await node(['fix.ts', project, FIX_ADD], { cwd: consumer, env });

    expect(run.code, run.stderr).toBe(0);
    const diff = readFileSync(join(consumer, 'fixloop-artifacts', 'fix-add-1.diff'), 'utf8');
    expect(diff).toContain('+  return a + b;');
    expect(run.stdout).toBe(`${diff}\n`);
    const result = JSON.parse(readFileSync(join(consumer, 'fixloop-artifacts', 'fix-add', 'result.json'), 'utf8')) as { status: string };
    expect(result.status).toBe('tests_green');
    // One line per phase or attempt on stderr; the engine's own lines stay in the artifacts.
    expect(run.stderr).toContain('fixloop: attempt 1/3 (script): 1 failing');
    expect(run.stderr).not.toContain('sed -i');
    // The repository, .git included, is as it was; the caller's folder gained only the artifacts;
    // the home folder nothing; the run's temp clone is gone. (What stays in the temp folder is shared
    // by runs: the package settings the sandbox gives commands, and npm's compile cache from reading them.)
    expect(treeFingerprint(project)).toEqual(before);
    expect(readdirSync(consumer).sort()).toEqual([...CONSUMER_FILES.slice(0, 1), 'fixloop-artifacts', ...CONSUMER_FILES.slice(1)]);
    expect(readdirSync(home)).toEqual([]);
    const leftInTemp = readdirSync(tmp, { recursive: true, encoding: 'utf8' });
    expect(leftInTemp.filter((f) => /(^|\/)(math\.js|math\.test\.js|\.git)$/.test(f))).toEqual([]);
    expect(readdirSync(tmp).filter((f) => !/^(fixloop-package-settings-|node-compile-cache$)/.test(f))).toEqual([]);
  });

  it('type-checks against the installed declarations, which refuse a misspelt option', async () => {
    const checked = await node([TSC, '-p', 'tsconfig.json'], { cwd: consumer, env: process.env });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);

    writeFileSync(join(consumer, 'wrong.ts'), "import { run } from 'fixloop';\nawait run('.', { taskId: 'x', testCommand: 'npm test', attemptLimt: 3 });\n");
    try {
      const wrong = await node([TSC, '-p', 'tsconfig.json'], { cwd: consumer, env: process.env });
      expect(wrong.code).not.toBe(0);
      expect(wrong.stdout).toContain("'attemptLimt' does not exist in type 'RunOptions'");
    } finally {
      execFileSync('rm', [join(consumer, 'wrong.ts')]);
    }
  });

  it('is the one the README prints', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`\n\`\`\`ts\n${readFileSync(EXAMPLE, 'utf8')}\`\`\`\n`);
  });

  it('installs what the entry needs: exports and types lead into dist/, which the package’s files include', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { types: string; default: string }>; types: string; files: string[] };
    expect(manifest.exports['.']).toEqual({ types: './dist/lib.d.ts', default: './dist/lib.js' });
    expect(manifest.types).toBe('./dist/lib.d.ts');
    expect(manifest.files).toContain('dist/');
    const built = readdirSync(join(installed, 'dist'), { recursive: true, encoding: 'utf8' });
    expect(built).toEqual(expect.arrayContaining(['lib.js', 'lib.d.ts', 'verify/harness_tampering.py', 'engines/prompt/templates/implement.md', 'engines/repair/templates/python/mutate.py']));
    expect(built.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('runs the installed command too: its bin takes the built JavaScript under node_modules', async () => {
    const project = await calcRepo();
    dirs.push(project);
    const bin = join(installed, 'bin', 'fixloop.js');
    const version = await node([bin, '--version'], { cwd: consumer, env: process.env });
    expect(version).toMatchObject({ code: 0, stdout: `${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n` });
    const run = await node([bin, 'run', project, '--test', 'node --test', '--engine', 'script', '--script', FIX_ADD, '--json', '--out', join(consumer, 'cli-run')], { cwd: consumer, env: process.env });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'tests_green' });
    execFileSync('rm', ['-rf', join(consumer, 'cli-run')]);
  });
});
