// The Python look from outside the runner with pickled values (src/assess/python/fixloop_outside.py):
// a receiver or an argument that JSON cannot write (a dict keyed by tuples, an object of the
// program's class) is pickled in the test process and unpickled in a plain interpreter, which
// imports its class from the program by name. Real processes: one records the replay as the probe
// does, another makes the call as the assessment's plain process does.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, preferResolvedPython, tempDir } from './probe-support.ts';

const PYTHON = fileURLToPath(new URL('../../../src/assess/python/', import.meta.url));

const LEDGER = [
  'class Ledger:',
  '    def __init__(self):',
  '        self.rows = {}',
  '',
  '    def add(self, day, item, amount):',
  '        self.rows[(day, item)] = self.rows.get((day, item), 0) + amount',
  '',
  '    def total(self, day):',
  '        return sum(v for (d, _), v in self.rows.items() if d == day)',
  '',
  'class Entry:',
  '    def __init__(self, amount):',
  '        self.amount = amount',
  '',
  'def doubled(entry):',
  '    return entry.amount * 2',
  '',
].join('\n');

/** The replay fields the probe would record for `call` (Python, after `setup`), with a pickle budget. */
function recorded(dir: string, setup: string, call: string): { replay?: string; replayThis?: string } {
  const script = [
    'import importlib.util, json, sys',
    `sys.path.insert(0, ${JSON.stringify(dir)})`,
    "spec = importlib.util.spec_from_file_location('r', sys.argv[1])",
    'r = importlib.util.module_from_spec(spec); spec.loader.exec_module(r)',
    setup,
    `print(json.dumps(r.replay_of(${call}, r.Budget())))`,
  ].join('\n');
  const out = execFileSync('python3', ['-c', script, join(PYTHON, 'fixloop_probe_replay.py')], { encoding: 'utf8' });
  return JSON.parse(out) as { replay?: string; replayThis?: string };
}

/** What the plain process gives for each call, run in `dir` as the assessment runs it. */
async function outside(dir: string, calls: object[]): Promise<Array<Record<string, unknown>>> {
  await writeFile(join(dir, 'calls.json'), JSON.stringify(calls));
  execFileSync('python3', [join(PYTHON, 'fixloop_outside.py'), 'calls.json', 'results.jsonl'], { cwd: dir });
  const text = await readFile(join(dir, 'results.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the Python look from outside the runner, with pickled values', () => {
  beforeAll(preferResolvedPython);
  afterEach(cleanup);

  it('makes a method call on a receiver JSON cannot write, unpickled from the program as it ships', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'ledger.py'), LEDGER);
    const setup = 'import ledger\nbook = ledger.Ledger()\nbook.add("mon", "tea", 3)\nbook.add("tue", "tea", 4)';
    const replay = recorded(dir, setup, 'False, "Ledger", (book, "mon"), {}');
    // The fields hold a dict keyed by tuples: no JSON for it, so the receiver is pickled.
    expect(replay.replayThis).toMatch(/^\{"\$fixloop": "pickle"/);
    expect(replay.replay).toBe('[["mon"], {}]');
    const [made] = await outside(dir, [
      { path: 'ledger.py', name: 'Ledger.total', args: replay.replay, this: replay.replayThis },
    ]);
    expect(made).toEqual({ i: 0, out: { returned: '3' } });
  });

  it("makes a function's call with an argument that is an object of the program's class", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'ledger.py'), LEDGER);
    const replay = recorded(dir, 'import ledger', 'True, None, (ledger.Entry(21),), {}');
    expect(replay.replay).toMatch(/^\{"\$fixloop": "pickle"/);
    const [made] = await outside(dir, [{ path: 'ledger.py', name: 'doubled', args: replay.replay }]);
    expect(made).toEqual({ i: 0, out: { returned: '42' } });
  });

  it('refuses a pickled receiver whose class of that name is defined in another file', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'ledger.py'), LEDGER);
    await mkdir(join(dir, 'other'));
    await writeFile(join(dir, 'other', 'books.py'), LEDGER);
    const setup = 'from other import books\nbook = books.Ledger()\nbook.add("mon", "tea", 3)';
    const replay = recorded(dir, setup, 'False, "Ledger", (book, "mon"), {}');
    expect(replay.replayThis).toMatch(/pickle/);
    const [made] = await outside(dir, [
      { path: 'ledger.py', name: 'Ledger.total', args: replay.replay, this: replay.replayThis },
    ]);
    expect(made).toEqual({ i: 0, missing: 'ledger.py has no class with a method named Ledger.total' });
  });

  it('makes no call whose arguments import pytest when they are given back', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'ledger.py'), LEDGER);
    const replay = recorded(dir, 'from _pytest.monkeypatch import MonkeyPatch', 'True, None, (MonkeyPatch(),), {}');
    expect(replay.replay).toMatch(/pickle/);
    const [made] = await outside(dir, [{ path: 'ledger.py', name: 'doubled', args: replay.replay }]);
    expect(made).toEqual({ i: 0, missing: 'the arguments of doubled import pytest' });
  });

  it('pickles nothing without a budget, once a pickle was slow, after its count, or beyond its size', () => {
    const script = [
      'import importlib.util, sys, threading',
      "spec = importlib.util.spec_from_file_location('r', sys.argv[1])",
      'r = importlib.util.module_from_spec(spec); spec.loader.exec_module(r)',
      'class Box: pass',
      'box = Box(); box.lock = threading.Lock()',
      'big = Box(); big.rows = {(i, i): "x" * 20 for i in range(2000)}',
      'slow = r.Budget(); slow.slow = True',
      'spent = r.Budget(); spent.left = 0',
      'print(r.replay_of(True, None, ({(1, 2): 3},), {}, None))',
      'print(r.replay_of(True, None, ({(1, 2): 3},), {}, slow))',
      'print(r.replay_of(True, None, ({(1, 2): 3},), {}, spent))',
      'print(r.replay_of(True, None, (box,), {}, r.Budget()))',
      'print(r.replay_of(True, None, (big,), {}, r.Budget()))',
      'print(bool(r.replay_of(True, None, ({(1, 2): 3},), {}, r.Budget())))',
    ].join('\n');
    const lines = execFileSync('python3', ['-c', script, join(PYTHON, 'fixloop_probe_replay.py')], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(lines).toEqual(['{}', '{}', '{}', '{}', '{}', 'True']);
  });
});
