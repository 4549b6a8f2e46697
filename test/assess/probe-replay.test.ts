// A suite call's arguments as exact data (src/assess/js/probe-replay.cjs, python/fixloop_probe_replay.py):
// JSON that gives the same values back in a plain process, or nothing when a value would come back
// otherwise, so the look from outside the runner never calls a function with other arguments.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { fieldsText, replayText } = require('../../src/assess/js/probe-replay.cjs') as {
  replayText: (args: unknown[]) => string | undefined;
  fieldsText: (receiver: unknown) => string | undefined;
};

describe('JavaScript arguments as exact data', () => {
  it('writes strings, finite numbers, booleans, null, arrays and plain objects, of any realm', () => {
    expect(replayText(['C:\\x', 2, true, null, [1, 'a'], { a: { b: [] } }])).toBe(
      '["C:\\\\x",2,true,null,[1,"a"],{"a":{"b":[]}}]',
    );
    expect(replayText([Object.assign(Object.create(null), { k: 1 })])).toBe('[{"k":1}]');
    // jest runs each test file in a realm of its own: its plain objects have another Object.prototype.
    expect(replayText([runInNewContext('({ a: [1, 2] })')])).toBe('[{"a":[1,2]}]');
    expect(replayText([])).toBe('[]');
  });

  it('refuses what JSON would bring back otherwise', () => {
    class Point {
      x = 1;
    }
    const holed = [1, 2, 3];
    delete holed[1];
    const tagged = Object.assign([1], { extra: true });
    const getter = Object.defineProperty({}, 'a', { get: () => 1, enumerable: true });
    const hidden = Object.defineProperty({}, 'a', { value: 1, enumerable: false });
    for (const value of [
      undefined,
      -0,
      NaN,
      Infinity,
      10n,
      new Date(0),
      /a/,
      new Point(),
      holed,
      tagged,
      getter,
      hidden,
      { [Symbol('s')]: 1 },
      () => 1,
    ])
      expect(replayText([value]), String(value)).toBeUndefined();
    expect(replayText(['a'.repeat(5000)])).toBeUndefined();
    let deep: unknown = 1;
    for (let i = 0; i < 8; i += 1) deep = [deep];
    expect(replayText([deep])).toBeUndefined();
    // Longer than any text that fits is not walked: a receiver may hold a whole document.
    expect(replayText([Array.from({ length: 3000 }, () => 0)])).toBeUndefined();
  });

  it("writes a method's receiver as its own fields when they are all exact data, private fields aside", () => {
    class Meter {
      #unit = 'cm';
      scale = 2;
      names = ['a'];
      get unit(): string {
        return this.#unit;
      }
    }
    expect(fieldsText(new Meter())).toBe('{"scale":2,"names":["a"]}');
    expect(fieldsText(Object.defineProperty(new Meter(), '__proto__', { value: 1, enumerable: true }))).toBe(
      '{"scale":2,"names":["a"],"__proto__":1}',
    );
    class Holder {
      when = new Date(0);
    }
    for (const receiver of [new Holder(), [1], null, 'text', Object.assign(new Meter(), { [Symbol('s')]: 1 })])
      expect(fieldsText(receiver), String(receiver)).toBeUndefined();
  });
});

describe('Python arguments as exact data', () => {
  const replay = (expression: string): string =>
    execFileSync(
      'python3',
      [
        '-c',
        [
          'import importlib.util, sys',
          "spec = importlib.util.spec_from_file_location('r', sys.argv[1])",
          'r = importlib.util.module_from_spec(spec); spec.loader.exec_module(r)',
          `args, kwargs = ${expression}`,
          'print(r.replay_text(args, kwargs))',
        ].join('\n'),
        'src/assess/python/fixloop_probe_replay.py',
      ],
      { encoding: 'utf8' },
    ).trim();

  it('writes [args, kwargs] of strings, ints, finite floats, booleans, None, lists and string-keyed dicts', () => {
    expect(replay(`(("3.5", 2, 1.5, True, None, [1, {"a": []}]), {"strict": False})`)).toBe(
      '[["3.5", 2, 1.5, true, null, [1, {"a": []}]], {"strict": false}]',
    );
  });

  const replayOf = (setup: string, call: string): string =>
    execFileSync(
      'python3',
      [
        '-c',
        [
          'import importlib.util, json, sys',
          "spec = importlib.util.spec_from_file_location('r', sys.argv[1])",
          'r = importlib.util.module_from_spec(spec); spec.loader.exec_module(r)',
          setup,
          `print(json.dumps(r.replay_of(${call}), sort_keys=True))`,
        ].join('\n'),
        'src/assess/python/fixloop_probe_replay.py',
      ],
      { encoding: 'utf8' },
    ).trim();

  it("writes a method's call on an object of exactly its class as its fields and the other arguments", () => {
    const setup = [
      'class Meter:',
      '    def __init__(self): self.scale, self.unit = 2, "cm"',
      'class Wide(Meter): pass',
      'class Slotted:',
      '    __slots__ = ("scale",)',
      'class Dated:',
      '    def __init__(self): self.when = (1, 2)',
    ].join('\n');
    expect(replayOf(setup, `False, "Meter", (Meter(), 3), {"sep": " "}`)).toBe(
      '{"replay": "[[3], {\\"sep\\": \\" \\"}]", "replayThis": "{\\"scale\\": 2, \\"unit\\": \\"cm\\"}"}',
    );
    expect(replayOf(setup, `True, None, (3,), {}`)).toBe('{"replay": "[[3], {}]"}');
    // A subclass may change what the method's other calls do; slots and fields that are not exact data cannot be given back.
    for (const receiver of ['Wide()', 'Slotted()', 'Dated()', '3'])
      expect(replayOf(setup, `False, "Meter", (${receiver}, 3), {}`), receiver).toBe('{}');
    expect(replayOf(setup, `False, None, (Meter(), 3), {}`)).toBe('{}');
  });

  it('refuses tuples, sets, bytes, objects, non-finite floats, -0.0 and keys that are not strings', () => {
    for (const value of ['(1, 2)', '{1}', "b'x'", 'object()', "float('nan')", "float('inf')", '-0.0', '{1: 2}', "'x' * 5000"])
      expect(replay(`((${value},), {})`), value).toBe('None');
  });
});
