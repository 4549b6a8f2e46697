// What a pytest start in the sandbox costs with and without pytest's rewritten entry-point plugins
// cached beside the operator's toolchain (src/runners/pytest/plugin-rewrites.ts): one test in a
// folder of its own, `python3 -m pytest` through the sandbox as the gate starts it, in rounds of one
// start without the cache (the cached rewrites deleted first) and one with it (made by fixloop's
// warm-up). Deleting them touches the operator's toolchain, so the bench asks for `--drop-cache`;
// without it, only the cached starts are timed. A round whose deleted cache came back before its
// start (another fixloop run made it meanwhile) is left out and counted.
//   node bench/pytest-plugin-cache.ts [--rounds 5] [--sandbox auto|bwrap|process] [--drop-cache]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { args, flag } from './lib/args.ts';
import { median } from './lib/stats.ts';
import { parseSandboxChoice, selectSandbox } from '../src/sandbox/select-sandbox.ts';
import { warmPluginRewrites, writePluginRewrites } from '../src/runners/pytest/plugin-rewrites.ts';

const rounds = Number(flag('--rounds') ?? 5);
const choice = parseSandboxChoice(flag('--sandbox') ?? 'auto', '--sandbox');
const dropCache = args.includes('--drop-cache');
const COMMAND = 'python3 -m pytest -q -p no:cacheprovider test_a.py';

const dir = mkdtempSync(join(tmpdir(), 'fixloop-bench-pytest-cache-'));
writeFileSync(join(dir, 'test_a.py'), 'def test_a():\n    assert 1 + 1 == 2\n');
const { sandbox } = selectSandbox(choice, process.env, { commands: [COMMAND] });
const python = sandbox.describe?.([COMMAND]).toolchains.find((t) => t.name === 'python3');
const interpreter = python ? (python.kind === 'pyenv' ? python.realPath : python.executable) : 'python3';
const resolve = () => interpreter;

/** The rewritten plugins pytest cached in the interpreter's site-packages (`*-pytest-*.pyc`). */
function cachedRewrites(): string[] {
  const sites = execFileSync(interpreter, ['-c', 'import site; print("\\n".join(site.getsitepackages()))'], { encoding: 'utf8' });
  return sites
    .split('\n')
    .filter(Boolean)
    .flatMap((site) => {
      try {
        return execFileSync('find', [site, '-path', '*/__pycache__/*-pytest-*.pyc'], { encoding: 'utf8' }).split('\n');
      } catch {
        return [];
      }
    })
    .filter(Boolean);
}

async function start(): Promise<number> {
  const result = await sandbox.run({ command: COMMAND, cwd: dir, timeoutMs: 120_000 });
  if (result.exitCode !== 0) throw new Error(`pytest failed in the sandbox:\n${result.output}`);
  return result.durationMs;
}

const cold: number[] = [];
const warm: number[] = [];
let raced = 0;
const warmUp = Date.now();
await warmPluginRewrites(COMMAND, dir, resolve);
const warmUpMs = Date.now() - warmUp;
const cached = cachedRewrites().length;
try {
  for (let round = 0; round < rounds; round++) {
    if (dropCache) {
      for (const file of cachedRewrites()) unlinkSync(file);
      const ms = await start();
      if (cachedRewrites().length === 0) cold.push(ms);
      else raced++;
      // The warm-up runs once per process: the cache written again as it writes it.
      await writePluginRewrites({ file: interpreter, args: ['-m', 'pytest'] });
    }
    warm.push(await start());
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const s = (ms: number | null) => (ms === null ? '–' : `${(ms / 1000).toFixed(2)} s`);
console.log(`pytest in the ${sandbox.backend} sandbox, ${interpreter}: ${cached} rewritten plugin modules cached`);
console.log(`- the warm-up (one pytest collection outside the sandbox): ${s(warmUpMs)}`);
console.log(`- a start with the cache: median ${s(median(warm))} of ${warm.length}`);
if (dropCache) {
  const ratio = median(cold) !== null && median(warm) !== null ? (median(warm) ?? 0) / (median(cold) ?? 1) : null;
  console.log(
    `- a start without it: median ${s(median(cold))} of ${cold.length}${raced ? ` (${raced} left out: the cache came back)` : ''}`,
  );
  console.log(`- with / without: ${ratio === null ? '–' : `${Math.round(ratio * 100)} %`}`);
}
