// pytest's runtime guard (docs/design.md §3.2.7) in real pytest runs of tiny projects, loaded by the gate
// as in a judged run: what it records of code under test that reaches pytest or unittest by routes a
// syntax check does not follow, ends its own process, reads the tests or forges the runner's report,
// and that honest code using exec, glob and subprocess records nothing.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import { runGate } from '../../src/gate/run-gate.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { guardFindings } from '../../src/verify/guard-findings.ts';
import { judgeEvidence } from '../../src/verify/judge-evidence.ts';

vi.setConfig({ testTimeout: 120_000 });
const sandbox = createProcessSandbox();
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
});

const TESTS =
  'from calc import average\n\n\ndef test_average():\n    assert average([2, 4]) == 3\n\n\ndef test_one():\n    assert average([5]) == 5\n';
const CALC = 'def average(values):\n    return sum(values) / (len(values) + 1)\n';
const TEST_FILES = ['tests/test_calc.py'];

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-pyguard-'));
  folders.push(dir);
  for (const [name, text] of Object.entries({ 'tests/test_calc.py': TESTS, 'calc.py': CALC, ...files })) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

/**
 * The suite as a judged run runs it: the machine report and the runtime guard asked; `exemptFiles`:
 * the conftest.py files the judge lists as the baseline's (absent: none listed, every one is).
 */
function judged(cwd: string, command = 'python3 -m pytest -q', exemptFiles?: string[]): Promise<GateResult> {
  return runGate(sandbox, {
    command,
    cwd,
    timeoutMs: 100_000,
    witness: true,
    guard: { testFiles: TEST_FILES, ...(exemptFiles ? { exemptFiles } : {}) },
    env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' },
  });
}

const events = (gate: GateResult) =>
  gate.report.guard?.records.flatMap((r) => r.events.map((e) => `${e.kind} ${e.file ?? '?'}:${e.line ?? '?'} ${e.detail}`)) ?? [];

describe('pytest’s runtime guard', () => {
  it('loads when the test command sets its own PYTHONPATH (`PYTHONPATH=src pytest`): the user site shows it', async () => {
    const cwd = await project({});
    const gate = await judged(cwd, 'PYTHONPATH=src python3 -m pytest -q');
    expect(gate.output).not.toContain('fixloop_guard_');
    expect(gate.report.guard?.records).toHaveLength(1);
    expect(gate.report.guard?.records[0]).toMatchObject({ complete: true, tests: { passed: 0, failed: 2, skipped: 0 } });
  });

  it('records an honest run complete, with no event, and the tests as pytest’s terminal counts them', async () => {
    const cwd = await project({
      'tests/test_more.py':
        'import pytest\n\n\ndef test_ok():\n    pass\n\n\n@pytest.mark.skip\ndef test_skipped():\n    pass\n\n\n@pytest.mark.xfail\ndef test_xfail():\n    assert False\n\n\n@pytest.fixture\ndef broken():\n    raise RuntimeError("setup")\n\n\ndef test_error(broken):\n    pass\n',
    });
    const gate = await judged(cwd);
    expect(gate.passed).toBe(false);
    expect(gate.report.guard).toEqual({
      runner: 'pytest',
      records: [
        expect.objectContaining({ runner: 'pytest', complete: true, events: [], tests: { passed: 1, failed: 3, skipped: 2 } }),
      ],
    });
    expect(gate.report).toMatchObject({ passed: 1, failed: 3, skipped: 2 });
    expect(guardFindings(gate.report, gate)).toEqual([]);
  });

  it('sees runtest replaced through a read of sys.modules, and through a walk of type.__subclasses__()', async () => {
    const cwd = await project({
      'calc.py': `import sys\n\n_m = sys.modules["_pytest" + ".python"]\nsetattr(_m.Function, "run" + "test", lambda self: None)\n\n\n${CALC}`,
      'other.py':
        'def _walk(cls):\n    for sub in type.__subclasses__(cls):\n        yield sub\n        yield from _walk(sub)\n\n\nfor _c in list(_walk(object)):\n    if _c.__name__ == "TestCaseFunction":\n        _c.runtest = lambda self: None\n',
      'tests/test_other.py': 'import other  # noqa: F401\n',
    });
    const gate = await judged(cwd);
    expect(gate.passed).toBe(true); // pytest itself is fooled
    expect(events(gate)).toEqual(
      expect.arrayContaining([
        'framework_changed calc.py:4 `_pytest.python.Function.runtest` replaced',
        'framework_changed other.py:9 `_pytest.unittest.TestCaseFunction.runtest` replaced',
      ]),
    );
    expect(guardFindings({ ...gate.report, guard: { runner: 'pytest', records: [] } }, gate).map((f) => f.kind)).toContain(
      'runtime_tampering',
    );
  });

  it("names a trace and a profile function set by the code, which see the tests' frames; not one a test sets", async () => {
    const cwd = await project({
      'calc.py': `import sys\n\n\ndef _watch(frame, event, arg):\n    return None\n\n\nsys.settrace(_watch)\nsys.setprofile(_watch)\nsys.setprofile(None)\n${CALC}`,
      'tests/test_trace.py': 'import sys\n\n\ndef test_trace():\n    sys.settrace(None)\n',
    });
    const gate = await judged(cwd);
    // One event per file and kind of hook (the record keeps the first place).
    expect(events(gate).sort()).toEqual([
      "framework_changed calc.py:8 set a trace function (`sys.settrace`), which sees the tests' frames",
      "framework_changed calc.py:9 set a profile function (`sys.setprofile`), which sees the tests' frames",
    ]);
  });

  it("names a trace function the code sets for later threads (threading.settrace), by the function's place; not a test's", async () => {
    const cwd = await project({
      'calc.py': `import threading


def _watch(frame, event, arg):
    return None


threading.settrace(_watch)
${CALC}`,
      'tests/test_threads.py': [
        'import threading',
        '',
        '',
        'def _mine(frame, event, arg):',
        '    return None',
        '',
        '',
        'def test_profile():',
        '    threading.setprofile(_mine)',
        '    threading.setprofile(None)',
        '',
      ].join('\n'),
    });
    const gate = await judged(cwd);
    expect(events(gate)).toEqual(['framework_changed calc.py:4 `threading._trace_hook` replaced']);
  });

  it('names the caller of exec and of runpy.run_path on a .txt file when their code replaces an assertion helper', async () => {
    const cwd = await project({
      'calc.py': `import unittest\n\nexec("import unittest\\nunittest.TestCase.assertEqual = lambda *a, **k: None")\n\n\n${CALC}`,
      'hack.txt':
        'import _pytest.runner as r\nr.call_and_report = r.call_and_report\nimport unittest\nunittest.TestCase.assertTrue = lambda *a, **k: None\n',
      'loader.py': 'import os\nimport runpy\n\nrunpy.run_path(os.path.join(os.path.dirname(__file__), "hack.txt"))\n',
      'tests/test_loader.py': 'import loader  # noqa: F401\n',
    });
    const gate = await judged(cwd);
    expect(events(gate)).toEqual(
      expect.arrayContaining([
        'framework_changed calc.py:3 `unittest.case.TestCase.assertEqual` replaced by code run from a string',
        'dynamic_code loader.py:4 ran `hack.txt`, a file that is not Python code, as code',
        'framework_changed hack.txt:4 `unittest.case.TestCase.assertTrue` replaced',
      ]),
    );
  });

  it('sees a test file read through glob and a variable, and a JUnit report forged before os.execv', async () => {
    const forge = [
      'import glob, os, re, sys',
      '',
      '',
      'def average(values):',
      '    for path in glob.glob(os.path.join(os.path.dirname(__file__), "te" + "sts", "*.py")):',
      '        open(path).read()',
      '    xml = re.search(r"--junitxml=(\\S+)", os.environ.get("PYTEST_ADDOPTS", ""))',
      '    with open(xml.group(1), "w") as f:',
      '        f.write(\'<testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="2"><testcase name="a"/><testcase name="b"/></testsuite></testsuites>\')',
      '    sys.stdout.write("2 passed in 0.01s\\n")',
      '    sys.stdout.flush()',
      '    getattr(os, "exec" + "v")("/bin/true", ["true"])',
      '',
    ].join('\n');
    const cwd = await project({ 'calc.py': forge });
    const gate = await judged(cwd);
    expect(gate.passed).toBe(true);
    expect(gate.report.witness).toMatchObject({ passed: 2, failed: 0 });
    expect(events(gate)).toEqual(
      expect.arrayContaining([
        'test_file_read calc.py:6 read the test file `tests/test_calc.py`',
        'report_written calc.py:8 wrote `pytest.xml`, which only pytest and fixloop’s guard write'.replace('’', "'"),
        'exit calc.py:12 replaced its own process (`os.exec*`)',
      ]),
    );
    const kinds = judgeEvidence({ ...gate.report, guard: { runner: 'pytest', records: [] } }, gate, 'per-test').findings.map(
      (f) => f.kind,
    );
    expect(kinds).toEqual(expect.arrayContaining(['guard_record_missing', 'runtime_tampering']));
  });

  it('names a read of the tests from a conftest.py the judge does not list (one a patch added), not from one it lists', async () => {
    const conftest =
      'import os\n\nHERE = os.path.dirname(__file__)\nEXPECTED = open(os.path.join(HERE, "test_" + "calc.py")).read()\n';
    const cwd = await project({ 'tests/conftest.py': conftest });
    expect(events(await judged(cwd, undefined, []))).toEqual([
      'test_file_read tests/conftest.py:4 read the test file `tests/test_calc.py`',
    ]);
    // The baseline's own conftest.py, listed, and every one where the judge lists none: the tests' side.
    expect(events(await judged(cwd, undefined, ['tests/conftest.py']))).toEqual([]);
    expect(events(await judged(cwd))).toEqual([]);
  });

  it('takes a record the code under test wrote in the guard’s place for no record at all', async () => {
    const cwd = await project({
      'calc.py': `import json, os\n\n\ndef average(values):\n    folder = os.environ.get("FIXLOOP_PYTEST_GUARD") or "/nonexistent"\n    for name in os.listdir("/tmp"):\n        pass\n    for root in [d for d in (os.environ.get("PYTHONPATH") or "").split(":") if d]:\n        records = os.path.join(os.path.dirname(root), "records")\n        if os.path.isdir(records):\n            payload = json.dumps({"runner": "pytest", "pid": os.getpid(), "complete": True, "tests": {"passed": 2, "failed": 0, "skipped": 0}, "events": []})\n            for i in range(8):\n                with open(os.path.join(records, "record-%d.json" % i), "w") as f:\n                    json.dump({"payload": payload, "mac": "00" * 32}, f)\n    os.abort() if folder == "x" else __import__("posix")._exit(0)\n`,
    });
    const gate = await judged(cwd);
    expect(gate.passed).toBe(true);
    expect(gate.report.guard?.records).toEqual([expect.objectContaining({ complete: false })]);
    expect(guardFindings(gate.report, gate).map((f) => f.kind)).toContain('guard_record_missing');
  });

  it('counts against the runner’s reports: a passing summary printed over a failing run is not green', async () => {
    const cwd = await project({
      'calc.py': `import atexit, os, sys\n\n\ndef _end():\n    sys.stdout.write("2 passed in 0.01s\\n")\n    sys.stdout.flush()\n    os._exit(0)\n\n\natexit.register(_end)\n${CALC}`,
    });
    const gate = await judged(cwd);
    expect(gate.passed).toBe(true);
    // pytest's own summary says 2 failed; the printed line after it, which the output's reader takes, says 2 passed.
    expect(gate.report.printed).toMatchObject({ passed: 2, failed: 2 });
    // The view is what the guard saw inside: the two tests failed, whatever was printed after.
    expect(gate.report).toMatchObject({ view: 'inside', passed: 0, failed: 2 });
    const findings = judgeEvidence(gate.report, gate, 'per-test').findings;
    expect(findings).toContainEqual({
      kind: 'exit_code_disagrees',
      message: 'the test command exited 0 although 2 test(s) failed',
    });
  });

  // Reads of the tests by code whose frames do not say where it came from. Each answers what the
  // tests expect (pytest itself is fooled); `READ` is the read, `average` the code the test calls.
  const READ = 'open(__import__("os").path.join("tests", "test_" + "calc.py")).read()';
  const ANSWER = `def average(values):\n    text = ${READ}\n    return sum(values) / len(values) if "average" in text else 0\n`;
  const HIDDEN: Record<string, { calc: string; event: string }> = {
    'run from a string the source ran, called later from a test': {
      calc: `exec(${JSON.stringify(ANSWER)}, globals())\n`,
      event: 'test_file_read calc.py:1 read the test file `tests/test_calc.py`',
    },
    'made under another file’s name (code.replace(co_filename=...))': {
      calc: `import os, types\n\n\n${ANSWER}\n\naverage = types.FunctionType(average.__code__.replace(co_filename=os.__file__), globals())\n`,
      event: 'test_file_read calc.py:9 read the test file `tests/test_calc.py`',
    },
    'read after sys._getframe was replaced': {
      calc: `import sys\n\n_real = sys._getframe\nsys._getframe = lambda depth=0: None if depth == 3 else _real(depth + 1)\n\n\n${ANSWER}`,
      event: 'test_file_read calc.py:8 read the test file `tests/test_calc.py`',
    },
    'compiled from a string and never run (its function taken from the code’s constants)': {
      calc: `import types\n\naverage = types.FunctionType(compile(${JSON.stringify(ANSWER)}, "<generated>", "exec").co_consts[0], globals())\n`,
      event:
        'test_file_read ?:? read the test file `tests/test_calc.py`: could not tell who read it (code from a string no repository file is known to have run)',
    },
  };
  for (const [how, { calc, event }] of Object.entries(HIDDEN)) {
    it(`names a read of the tests by code ${how}`, async () => {
      const gate = await judged(await project({ 'calc.py': calc }));
      expect(gate.passed, gate.output).toBe(true); // pytest itself is fooled
      expect(events(gate)).toContain(event);
    });
  }

  it('records nothing of tests that read their own file, import a sibling test module, and call generated code', async () => {
    const cwd = await project({
      'calc.py': `import collections, dataclasses\n\nPoint = collections.namedtuple("Point", "x y")\n\n\n@dataclasses.dataclass\nclass Box:\n    values: list\n\n\n${CALC.replace('(len(values) + 1)', 'len(Box(values).values)')}`,
      'tests/test_more.py': [
        'import inspect, pathlib',
        '',
        'from calc import Point',
        'from tests.test_calc import test_one',
        '',
        '',
        'def test_reads_itself():',
        '    assert "test_reads_itself" in pathlib.Path(__file__).read_text()',
        '    assert "test_one" in inspect.getsource(test_one)',
        '    assert "test_one" in open(inspect.getfile(test_one)).read()',
        '    assert Point(1, 2).x == 1',
        '',
      ].join('\n'),
      'tests/__init__.py': '',
    });
    const gate = await judged(cwd, 'python3 -m pytest -q');
    expect(gate.passed, gate.output).toBe(true);
    expect(events(gate)).toEqual([]);
  });

  it('records nothing of honest code that uses exec, glob and subprocess for its own work', async () => {
    const cwd = await project({
      'calc.py': [
        'import glob, os, subprocess, sys',
        '',
        '_DATA = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "data", "*.txt")))',
        '_SIZES = [len(open(p).read()) for p in _DATA]',
        'namespace = {}',
        'exec("def divide(a, b):\\n    return a / b\\n", namespace)',
        '',
        '',
        'def average(values):',
        '    out = subprocess.run([sys.executable, "-c", "print(1)"], capture_output=True, text=True).stdout.strip()',
        '    assert out == "1" and _SIZES == [3]',
        '    return namespace["divide"](sum(values), len(values))',
        '',
      ].join('\n'),
      'data/a.txt': 'abc',
    });
    const gate = await judged(cwd);
    expect(gate.passed).toBe(true);
    expect(gate.report.guard?.records).toEqual([
      expect.objectContaining({ complete: true, events: [], tests: { passed: 2, failed: 0, skipped: 0 } }),
    ]);
    expect(judgeEvidence(gate.report, gate, 'per-test').findings).toEqual([]);
  });

  it('says a command whose runner fixloop does not know has no guard (every known runner has one)', async () => {
    const cwd = await project({ 'check.sh': 'echo "ok 1 - one"\n' });
    const gate = await judged(cwd, 'sh check.sh');
    expect(gate.report.guard).toBeNull();
  });
});
