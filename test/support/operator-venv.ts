// The operator's python3 as the tests find it, whether it has pytest, and a virtualenv of it that
// sees its base's packages (pytest) with none downloaded: for the tests that run Python toolchains
// as an operator has them (a venv first on the PATH, pytest's plugins beside the toolchain).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { which } from '../../src/sandbox/toolchains.ts';

/** The python3 the test process's PATH finds, or null. */
export const hostPython3 = which('python3', process.env.PATH ?? '');

/** Whether that python3 runs pytest. */
export const hostHasPytest = (() => {
  try {
    execFileSync(hostPython3 ?? 'python3', ['-m', 'pytest', '--version'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
})();

/** A venv at `dir` of the host's python3, its base's packages visible; its `bin/` and its own site-packages. */
export function makeOperatorVenv(dir: string): { bin: string; site: string } {
  execFileSync(hostPython3 ?? 'python3', ['-m', 'venv', '--system-site-packages', '--without-pip', dir], { timeout: 60_000 });
  const bin = join(dir, 'bin');
  const site = execFileSync(join(bin, 'python3'), ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], {
    encoding: 'utf8',
  }).trim();
  return { bin, site };
}
