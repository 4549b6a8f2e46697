// pytest's guard knows a test file by what was opened, whatever name reached it (_opened.py), and
// watches the routes below and beside `open` from the repository's code (_routes.py): in real pytest
// runs of a tiny project, loaded by the gate as in a judged run. Each route taken from source is an
// event; the same routes taken honestly (the code's own data, ctypes for another library, a child
// given a copy of the environment) are not.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import { runGate } from '../../src/gate/run-gate.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';

vi.setConfig({ testTimeout: 120_000 });
const sandbox = createProcessSandbox();
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
});

const TESTS = 'from calc import average\n\n\ndef test_average():\n    assert average([2, 4]) == 3\n';
const AVERAGE = '\n\ndef average(values):\n    return sum(values) / len(values)\n';

/** pytest, judged as the gate runs it, on calc.py made of `lines` and an honest `average`; its events. */
async function eventsOf(lines: string[], files: Record<string, string> = {}): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-pyroutes-'));
  folders.push(dir);
  const all = { 'tests/test_calc.py': TESTS, 'calc.py': lines.join('\n') + AVERAGE, 'data/rates.txt': 'rates\n', ...files };
  for (const [name, text] of Object.entries(all)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  const gate: GateResult = await runGate(sandbox, {
    command: 'python3 -m pytest -q -p no:cacheprovider',
    cwd: dir,
    timeoutMs: 100_000,
    witness: true,
    guard: { testFiles: Object.keys(all).filter((f) => f.startsWith('tests/')) },
    env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' },
  });
  expect(gate.passed).toBe(true);
  const records = gate.report.guard?.records ?? [];
  expect(records.map((r) => r.complete)).toEqual([true]);
  return records.flatMap((r) => r.events.map((e) => `${e.kind} ${e.file ?? '?'}:${e.line ?? '?'} ${e.detail}`));
}

describe('pytest’s guard, reads seen by what was opened', () => {
  it('names a read of the test file through a hard link, a symlink and an open relative to a directory descriptor', async () => {
    const events = await eventsOf([
      'import os',
      'import tempfile',
      '_T = os.path.join("te" + "sts", "test_calc.py")',
      '_D = tempfile.mkdtemp()',
      'os.link(_T, os.path.join(_D, "h")); open(os.path.join(_D, "h")).read()',
      'os.symlink(os.path.abspath(_T), os.path.join(_D, "s")); open(os.path.join(_D, "s"), "rb").read()',
      '_FD = os.open("te" + "sts", os.O_RDONLY)',
      'os.close(os.open("test_calc.py", os.O_RDONLY, dir_fd=_FD))',
    ]);
    expect(events).toEqual([
      expect.stringMatching(/^test_file_read calc.py:5 read the test file `tests\/test_calc.py` \(opened as `\/.*\/h`\)$/),
      expect.stringMatching(/^test_file_read calc.py:6 read the test file `tests\/test_calc.py` \(opened as `\/.*\/s`\)$/),
      'test_file_read calc.py:8 read the test file `tests/test_calc.py` (opened as `test_calc.py`)',
    ]);
  });

  it('stays clean for source that reads its own data by the same routes', async () => {
    const events = await eventsOf([
      'import os',
      'import tempfile',
      '_T = os.path.join("da" + "ta", "rates.txt")',
      '_D = tempfile.mkdtemp()',
      'os.link(_T, os.path.join(_D, "h")); open(os.path.join(_D, "h")).read()',
      'os.symlink(os.path.abspath(_T), os.path.join(_D, "s")); open(os.path.join(_D, "s"), "rb").read()',
      '_FD = os.open("da" + "ta", os.O_RDONLY)',
      'os.close(os.open("rates.txt", os.O_RDONLY, dir_fd=_FD))',
    ]);
    expect(events).toEqual([]);
  });
});

describe('pytest’s guard, routes below open', () => {
  it('names libc loaded through ctypes and its open looked up, an import hook of the source, and its loader compiling a test', async () => {
    const events = await eventsOf(
      [
        'import ctypes',
        'import importlib.machinery',
        'import importlib.util',
        'import os',
        'import sys',
        '_OPEN = ctypes.CDLL(None).open',
        '',
        '',
        'class _Loader(importlib.machinery.SourceFileLoader):',
        '    def source_to_code(self, data, path, *args, **kwargs):',
        '        return compile(data, path, "exec")',
        '',
        '',
        'class _Finder:',
        '    def find_spec(self, name, path=None, target=None):',
        '        for folder in sys.path:',
        '            found = os.path.join(folder, name + ".py")',
        '            if name.startswith("test_") and os.path.isfile(found):',
        '                return importlib.util.spec_from_file_location(name, found, loader=_Loader(name, found))',
        '        return None',
        '',
        '',
        'sys.meta_path.insert(0, _Finder())',
      ],
      { 'tests/test_more.py': 'def test_more():\n    assert True\n' },
    );
    expect(events).toEqual([
      'native_library calc.py:6 loaded the C library through ctypes (`the program itself`)',
      'native_library calc.py:6 looked up `open` in a C library through ctypes',
      'loader_hook calc.py:11 compiled the test file `tests/test_more.py` in an import loader of its own',
      'loader_hook calc.py:15 installed the import hook `_Finder` (sys.meta_path)',
    ]);
  });

  it('stays clean for ctypes imported and used for another library, and an import of the source’s own module', async () => {
    const events = await eventsOf(
      [
        'import ctypes',
        'import ctypes.util',
        '',
        '_M = ctypes.CDLL(ctypes.util.find_library("m"))',
        '_M.cos.restype = ctypes.c_double',
        'import helper',
      ],
      {
        'helper.py': 'X = 1\n',
      },
    );
    expect(events).toEqual([]);
  });
});

describe('pytest’s guard, child processes', () => {
  it('names a child started from source with an empty environment, or with PYTEST_ADDOPTS taken out, and one whose starter cannot be placed', async () => {
    const events = await eventsOf([
      'import os',
      'import subprocess',
      'import sys',
      'subprocess.run([sys.executable, "-c", "pass"], env={})',
      '_E = dict(os.environ); del _E["PYTEST_ADDOPTS"]; os.posix_spawn("/bin/true", ["true"], _E)',
      'import threading',
      '_T = threading.Thread(target=subprocess.run, args=(["true"],), kwargs={"env": {}})',
      '_T.start(); _T.join()',
    ]);
    expect(events).toEqual([
      expect.stringMatching(
        /^child_unguarded calc.py:4 started `.*python.*` with an environment without the guard's PYTEST_ADDOPTS and PYTHONPATH$/,
      ),
      "child_unguarded calc.py:5 started `/bin/true` with an environment without the guard's PYTEST_ADDOPTS and PYTHONPATH",
      "child_unguarded ?:? started `true` with an environment without the guard's PYTEST_ADDOPTS and PYTHONPATH: could not tell who started it",
    ]);
  });

  it('names a child of any program whose command line names a test file, however it is started', async () => {
    const events = await eventsOf([
      'import os',
      'import subprocess',
      'subprocess.run(["cat", "tests/test_calc.py"], capture_output=True)',
      'subprocess.run("grep -c mean ./tests/test_calc.py", shell=True, capture_output=True)',
      'os.system("wc -l " + os.getcwd() + "/tests/test_calc.py > /dev/null")',
      'subprocess.run(["cat", "data/rates.txt"], capture_output=True)',
    ]);
    expect(events).toEqual([
      'test_file_read calc.py:3 started `cat` with the test file tests/test_calc.py on its command line',
      'test_file_read calc.py:4 started `/bin/sh` with the test file tests/test_calc.py on its command line',
      expect.stringMatching(
        /^test_file_read calc.py:5 started `wc -l .*\/tests\/test_calc.py > \/dev\/null` with the test file tests\/test_calc.py on its command line$/,
      ),
    ]);
  });

  it('names a child whose command line reads a folder that holds the tests, searches its folder whole, or reads the committed files', async () => {
    const events = await eventsOf([
      'import os',
      'import subprocess',
      'subprocess.run(["grep", "-rho", "mean(.*)", "."], capture_output=True)',
      'subprocess.run("cat te*/*.py", shell=True, capture_output=True)',
      'subprocess.run(["rg", "-o", "mean"], capture_output=True) if False else os.system("rg -o mean > /dev/null 2>&1")',
      'subprocess.run(["git", "-C", os.getcwd(), "grep", "-h", "mean", "HEAD"], capture_output=True)',
      'subprocess.run(["git", "log", "--format=%H"], capture_output=True)',
      'subprocess.run(["grep", "-c", "rates", "data/rates.txt"], capture_output=True)',
    ]);
    expect(events).toEqual([
      'test_file_read calc.py:3 started `grep` with the folder `.`, which holds the tests',
      'test_file_read calc.py:4 started `/bin/sh` with the folder `.`, which holds the tests',
      'test_file_read calc.py:5 started `rg -o mean > /dev/null 2>&1` with its working folder `.`, which holds the tests, searched whole',
      "test_file_read calc.py:6 started `git` with the repository's files through `git grep`",
    ]);
  });

  it('stays clean for children that inherit the environment or are given a copy of it', async () => {
    const events = await eventsOf([
      'import os',
      'import subprocess',
      'import sys',
      'subprocess.run([sys.executable, "-c", "pass"], check=True)',
      'subprocess.run(["true"], env=dict(os.environ, EXTRA="1"), check=True)',
      'os.system("true")',
    ]);
    expect(events).toEqual([]);
  });
});

describe('pytest’s guard, the runner looked for in the environment', () => {
  const TESTS_CALLING = (name: string) => `${TESTS}\n\ndef test_${name}():\n    import calc\n    calc.${name}()\n`;

  it("names a runner's variable read by a name made at run time (`[]`, `get`, `in`, `os.getenv`), and /proc's environ and cmdline read", async () => {
    const events = await eventsOf(
      [
        'import os',
        'import pathlib',
        '',
        'def look():',
        '    name = "_".join(["PYTEST", "CURRENT", "TEST"])',
        '    assert os.environ[name] and os.environ.get(name) and name in os.environ and os.getenv(name)',
        '    open("/proc/self/environ", "rb").read(); pathlib.Path("/proc/%d/cmdline" % os.getppid()).read_bytes()',
        '    open("/proc/self/root/proc/thread-self/environ", "rb").read()',
      ],
      { 'tests/test_calc.py': TESTS_CALLING('look') },
    );
    expect(events).toEqual([
      "runner_detected calc.py:6 read the runner's variable PYTEST_CURRENT_TEST from the environment",
      'runner_detected calc.py:7 read /proc/self/environ, what a process started with',
      'runner_detected calc.py:7 read /proc/<pid>/cmdline, what a process started with',
      'runner_detected calc.py:8 read /proc/thread-self/environ, what a process started with',
    ]);
  });

  it('leaves the variables the runner set out of a listing or a copy the code makes, and keeps those the code or a test set', async () => {
    const events = await eventsOf(
      [
        'import os',
        '',
        'def runners(keys):',
        // The command's own settings stay listed: the operator's, not the runner's sign.
        '    return sorted(k for k in keys if k.startswith("PYTEST_") and k not in ("PYTEST_ADDOPTS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD"))',
        '',
        'def lists():',
        '    assert runners(os.environ) == runners(os.environ.copy()) == runners(dict(os.environ)) == ["PYTEST_MINE"]',
        '    assert runners(k for k, _ in os.environ.items()) == ["PYTEST_MINE"] and len(os.environ) == len(list(os.environ))',
        '    assert os.environ["PYTEST_MINE"] == "1" and "PATH" in os.environ.copy()',
      ],
      {
        'tests/test_calc.py': `${TESTS_CALLING('lists').replace('def test_lists():', 'def test_lists(monkeypatch):\n    monkeypatch.setenv("PYTEST_MINE", "1")')}`,
      },
    );
    expect(events).toEqual([]);
  });

  it("stays clean for the code's other variables and the test's own read of a runner's variable", async () => {
    const events = await eventsOf(['import os', '', 'def other():', '    return os.environ.get("HOME"), os.getenv("LANG")'], {
      'tests/test_calc.py': `${TESTS_CALLING('other')}\n\ndef test_reads():\n    import os\n    assert os.environ["PYTEST_CURRENT_TEST"]\n`,
    });
    expect(events).toEqual([]);
  });
});
