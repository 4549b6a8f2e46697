// A suite call's arguments as exact data (src/assess/js/probe-replay.cjs, python/fixloop_probe_replay.py):
// JSON that gives the same values back in a plain process, or nothing when a value would come back
// otherwise, so the look from outside the runner never calls a function with other arguments.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { fieldsText, instanceText, replayText } = require('../../src/assess/js/probe-replay.cjs') as {
  replayText: (args: unknown[]) => string | undefined;
  fieldsText: (receiver: unknown) => string | undefined;
  instanceText: (receiver: unknown) => string | undefined;
};
const { programNamesIn, revive } = require('../../src/assess/js/outside-revive.cjs') as {
  revive: (text: string, named?: (name: string) => unknown) => unknown;
  programNamesIn: (text: string) => Set<string>;
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

  it('tags what JSON has no literal for, and gives it all back as it was', () => {
    const args = [
      undefined,
      [undefined, -0, NaN, -Infinity],
      { a: undefined, n: Infinity, big: 10n ** 20n },
      new Date(86_400_000),
      new Date(NaN),
      Buffer.from('hi'),
      new Uint8Array([1, 255]),
      runInNewContext('new Date(5)'),
    ];
    const text = replayText(args);
    expect(text).toContain('{"$fixloop":"undefined"}');
    const back = revive(text!) as unknown[];
    expect(back).toHaveLength(args.length);
    expect(back[0]).toBeUndefined();
    expect((back[1] as unknown[]).map((v) => (Object.is(v, -0) ? '-0' : String(v)))).toEqual([
      'undefined',
      '-0',
      'NaN',
      '-Infinity',
    ]);
    const record = back[2] as Record<string, unknown>;
    expect(Object.keys(record)).toEqual(['a', 'n', 'big']);
    expect(record).toEqual({ a: undefined, n: Infinity, big: 10n ** 20n });
    expect(back[3]).toEqual(new Date(86_400_000));
    expect(Number.isNaN((back[4] as Date).getTime())).toBe(true);
    expect(Buffer.isBuffer(back[5]) && back[5].toString()).toBe('hi');
    expect(back[6]).toEqual(new Uint8Array([1, 255]));
    expect(Buffer.isBuffer(back[6])).toBe(false);
    expect(back[7]).toEqual(new Date(5));
    // A field named `__proto__` comes back a field, not a prototype.
    expect(Object.getPrototypeOf(revive('[{"__proto__":{"x":1}}]') as object[])).toBe(Array.prototype);
    expect(Object.keys((revive('[{"__proto__":{"x":1}}]') as object[])[0]!)).toEqual(['__proto__']);
  });

  it("writes Maps, Sets and objects of the program's classes by class name and fields, and gives them back", () => {
    class Rate {
      percent = 10;
    }
    class Special extends Rate {}
    const text = replayText([new Map([[['mon', 1], new Rate()]]), new Set(['a', 2]), new Special()]);
    expect(text).toBe(
      '[{"$fixloop":"map","items":[[["mon",1],{"$fixloop":"instance","class":"Rate","fields":{"percent":10}}]]},' +
        '{"$fixloop":"set","items":["a",2]},{"$fixloop":"instance","class":"Special","fields":{"percent":10}}]',
    );
    expect([...programNamesIn(text!)]).toEqual(['Rate', 'Special']);
    const [map, set, special] = revive(text!, (name) => ({ Rate, Special })[name]) as [Map<unknown, Rate>, Set<unknown>, Rate];
    expect([...map.values()][0]).toBeInstanceOf(Rate);
    expect([...set]).toEqual(['a', 2]);
    expect(special).toBeInstanceOf(Special);
    expect(special.percent).toBe(10);
    // No class of that name where the call is made: nothing is given back in its place.
    expect(() => revive(text!)).toThrow('no class named Rate');
  });

  it("writes a named function of the program's by its name, and gives back the one that name finds", () => {
    function wholeCents(cents: number): number {
      return Math.floor(cents);
    }
    class Ledger {
      round = wholeCents;
      rows = [1];
    }
    const text = replayText([new Ledger(), wholeCents]);
    expect(text).toBe(
      '[{"$fixloop":"instance","class":"Ledger","fields":{"round":{"$fixloop":"function","name":"wholeCents"},"rows":[1]}},' +
        '{"$fixloop":"function","name":"wholeCents"}]',
    );
    expect([...programNamesIn(text!)]).toEqual(['Ledger', 'wholeCents']);
    const [ledger, round] = revive(text!, (name) => ({ Ledger, wholeCents })[name]) as [Ledger, unknown];
    expect(ledger.round).toBe(wholeCents);
    expect(round).toBe(wholeCents);
    // No function of that name where the call is made: nothing is given back in its place.
    expect(() => revive(text!, (name) => ({ Ledger })[name])).toThrow('no function named wholeCents');
    // A function with state of its own, a bound one, a built-in or one with no name is not written.
    const memo = Object.assign(function memoized() {}, { cache: {} });
    const unnamed = [() => 1][0];
    for (const value of [memo, wholeCents.bind(null), Math.max, unnamed])
      expect(replayText([value]), String(value)).toBeUndefined();
  });

  it('refuses what JSON would bring back otherwise', () => {
    class Point {
      at = [() => 1];
    }
    class Table extends Map {}
    const holed = [1, 2, 3];
    delete holed[1];
    const tagged = Object.assign([1], { extra: true });
    const getter = Object.defineProperty({}, 'a', { get: () => 1, enumerable: true });
    const hidden = Object.defineProperty({}, 'a', { value: 1, enumerable: false });
    class Stamp extends Date {}
    for (const value of [
      new Stamp(0),
      Object.assign(new Date(0), { zone: 'UTC' }),
      new Uint16Array(2),
      { $fixloop: 'undefined' },
      /a/,
      new Point(),
      new Table(),
      new Error('x'),
      Object.assign(new Map(), { size2: 1 }),
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
      when = /a/;
    }
    for (const receiver of [new Holder(), [1], null, 'text', Object.assign(new Meter(), { [Symbol('s')]: 1 })])
      expect(fieldsText(receiver), String(receiver)).toBeUndefined();
  });
});

describe("a receiver of a subclass of the method's class", () => {
  it('is written as an object of its own class, by name and fields, when they are exact data', () => {
    class Cart {
      items = [2, 3];
    }
    class GiftCart extends Cart {
      to = 'Ada';
    }
    expect(instanceText(new GiftCart())).toBe('{"$fixloop":"instance","class":"GiftCart","fields":{"items":[2,3],"to":"Ada"}}');
    class Wrapped extends Map {}
    class Timed extends Cart {
      when = /a/;
    }
    for (const receiver of [new Wrapped(), new Timed(), { items: [1] }, [1], null])
      expect(instanceText(receiver), String(receiver)).toBeUndefined();
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
      '    def __init__(self): self.when = object()',
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

  it('tags tuples, sets, bytes, non-finite floats and -0.0, and gives them all back as they were', () => {
    const script = [
      'import importlib.util, math, sys',
      "spec = importlib.util.spec_from_file_location('r', sys.argv[1])",
      'r = importlib.util.module_from_spec(spec); spec.loader.exec_module(r)',
      "args = ((1, 'a'), {'b', 'a', 'c'}, frozenset([2]), b'\\x00\\xff', float('nan'), float('-inf'), -0.0, [()])",
      'text = r.replay_text(args, {"k": (None,)})',
      'print(text)',
      'back, kwargs = r.revive(text)',
      'print(back[:4] == list(args[:4]), [type(v).__name__ for v in back[:4]], math.isnan(back[4]), back[5], math.copysign(1, back[6]), back[7], kwargs)',
    ].join('\n');
    const [text, check] = execFileSync('python3', ['-c', script, 'src/assess/python/fixloop_probe_replay.py'], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n');
    // A set is written sorted: its order in a process is its hashes', which differ between processes.
    expect(text).toContain('{"$fixloop": "set", "items": ["a", "b", "c"]}');
    expect(check).toBe("True ['tuple', 'set', 'frozenset', 'bytes'] True -inf -1.0 [()] {'k': (None,)}");
  });

  it("refuses objects, subclasses of builtins, keys that are not strings, the tag's own key and long values", () => {
    for (const value of ['object()', 'type("S", (str,), {})("x")', '{1: 2}', '{"$fixloop": 1}', "'x' * 5000", '[0] * 3000'])
      expect(replay(`((${value},), {})`), value).toBe('None');
  });
});
