// pytest's rewritten entry-point plugins, cached beside the operator's toolchain once before the
// gate's first pytest command (src/runners/pytest/plugin-rewrites.ts), as an ordinary pytest start
// would: with a real venv of the operator's python3, a plugin distribution of its own, and the gate
// running in the sandbox. Only the operator's toolchain is ever started outside the sandbox.
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorPytest, warmPluginRewrites } from '../../src/runners/pytest/plugin-rewrites.ts';
import { runGate } from '../../src/gate/run-gate.ts';
import { bwrapWorks } from '../../src/sandbox/bwrap-sandbox.ts';
import { selectSandbox } from '../../src/sandbox/select-sandbox.ts';
import { which } from '../../src/sandbox/toolchains.ts';
import { hostHasPytest, hostPython3, makeOperatorVenv } from '../support/operator-venv.ts';

const onPath = (program: string) => which(program, process.env.PATH ?? '');

/** A venv of the operator's python3 (pytest from its base) with one pytest plugin distribution of its own. */
async function venvWithPlugin(root: string, name: string): Promise<{ python: string; pycache: string }> {
  const { bin, site } = makeOperatorVenv(join(root, name));
  const python = join(bin, 'python');
  await writeFile(join(site, 'fixloop_warm_plugin.py'), 'def pytest_configure(config):\n    assert config is not None\n');
  const info = join(site, 'fixloop_warm_plugin-1.0.dist-info');
  await mkdir(info);
  await writeFile(join(info, 'METADATA'), 'Metadata-Version: 2.1\nName: fixloop-warm-plugin\nVersion: 1.0\n');
  await writeFile(join(info, 'entry_points.txt'), '[pytest11]\nwarm = fixloop_warm_plugin\n');
  await writeFile(join(info, 'RECORD'), 'fixloop_warm_plugin.py,,\nfixloop_warm_plugin-1.0.dist-info/METADATA,,\n');
  return { python, pycache: join(site, '__pycache__') };
}

/** The plugin as pytest's assertion rewriting cached it (`<module>.cpython-3XX-pytest-<version>.pyc`). */
function rewritten(pycache: string): string[] {
  return existsSync(pycache) ? readdirSync(pycache).filter((f) => /^fixloop_warm_plugin\..*-pytest-.*\.pyc$/.test(f)) : [];
}

describe.runIf(hostPython3 !== null && hostHasPytest)(
  "pytest's rewritten plugins, cached beside the operator's toolchain",
  () => {
    let root: string;
    let checkout: string;
    beforeAll(async () => {
      root = realpathSync(await mkdtemp(join(tmpdir(), 'fixloop-plugin-rewrites-')));
      checkout = join(root, 'checkout');
      await mkdir(checkout);
      await writeFile(join(checkout, 'test_a.py'), 'def test_a():\n    assert 1 + 1 == 2\n');
    });
    afterAll(() => rm(root, { recursive: true, force: true }));

    it('are written by the gate before its first pytest command runs in the sandbox, with bytecode off there', async () => {
      const { python, pycache } = await venvWithPlugin(root, 'operator-venv');
      expect(rewritten(pycache)).toEqual([]);
      // The operator's shell has the venv first on its PATH; the sandbox shows it read-only.
      const command = 'python3 -m pytest -q -p no:cacheprovider';
      const env = { ...process.env, PATH: `${dirname(python)}:${process.env.PATH ?? ''}` };
      const { sandbox } = selectSandbox(bwrapWorks() ? 'bwrap' : 'process', env, { commands: [command] });
      const gate = await runGate(sandbox, { command, cwd: checkout, timeoutMs: 60_000 });
      expect(gate.report).toMatchObject({ passed: 1, failed: 0 });
      expect(rewritten(pycache)).toHaveLength(1);
    });

    it("are never made for an interpreter the repository's command names inside the checkout", async () => {
      const { python, pycache } = await venvWithPlugin(checkout, '.venv');
      expect(operatorPytest('.venv/bin/python -m pytest', checkout, onPath)).toBeNull();
      expect(operatorPytest(`${python} -m pytest`, checkout, onPath)).toBeNull();
      // Nor when the sandbox's PATH would find it there.
      expect(operatorPytest('python3 -m pytest', checkout, () => python)).toBeNull();
      await warmPluginRewrites(`${python} -m pytest -q`, checkout, onPath);
      await warmPluginRewrites('.venv/bin/python -m pytest -q', checkout, onPath);
      expect(rewritten(pycache)).toEqual([]);
    });

    it('are left to a later run when the run that started them is stopped', async () => {
      const { python, pycache } = await venvWithPlugin(root, 'stopped-venv');
      const stopped = new AbortController();
      stopped.abort();
      await warmPluginRewrites(`${python} -m pytest -q`, checkout, onPath, stopped.signal);
      expect(rewritten(pycache)).toEqual([]);
      await warmPluginRewrites(`${python} -m pytest -q`, checkout, onPath);
      expect(rewritten(pycache)).toHaveLength(1);
    });

    it('start the interpreter or the pytest script the PATH finds, as the command names it', () => {
      expect(operatorPytest('python3 -m pytest -q tests', checkout, onPath)).toEqual({
        file: onPath('python3'),
        args: ['-m', 'pytest'],
      });
      expect(operatorPytest('pytest -x', checkout, () => '/opt/tools/bin/pytest')).toEqual({
        file: '/opt/tools/bin/pytest',
        args: [],
      });
      expect(operatorPytest('/opt/py/bin/python3.12 -m pytest', checkout, onPath)?.file).toBe('/opt/py/bin/python3.12');
      expect(operatorPytest('make test', checkout, onPath)).toBeNull();
    });
  },
);
