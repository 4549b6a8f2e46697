// The generated inputs of the Python probe's runtime, on their own: numbers inside a dict and an
// array's first item are varied as the JavaScript probe varies them (test/assess/js/probe-inputs.test.ts).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const INPUTS = fileURLToPath(new URL('../../../src/assess/python/fixloop_probe_inputs.py', import.meta.url));
const STRINGS = fileURLToPath(new URL('../../../src/assess/python/fixloop_probe_strings.py', import.meta.url));

/**
 * `expression` (Python, after the `lines`), printed as JSON, with the runtime loaded as `module` beside
 * stand-ins for the modules it reads at import.
 */
function evaluate(expression: string, lines: string[] = []): unknown {
  const script = [
    'import importlib.util, json, sys, types',
    "sys.modules['_fixloop_probe_canon'] = types.ModuleType('canon')",
    "sys.modules['_fixloop_probe_path'] = types.ModuleType('path')",
    "strings = importlib.util.spec_from_file_location('_fixloop_probe_strings', sys.argv[2])",
    "sys.modules['_fixloop_probe_strings'] = importlib.util.module_from_spec(strings)",
    "strings.loader.exec_module(sys.modules['_fixloop_probe_strings'])",
    "spec = importlib.util.spec_from_file_location('inputs', sys.argv[1])",
    'module = importlib.util.module_from_spec(spec)',
    'spec.loader.exec_module(module)',
    ...lines,
    `print(json.dumps(${expression}))`,
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script, INPUTS, STRINGS], { encoding: 'utf8' }));
}

/** `_near(value)` of the runtime. */
function near(value: string): unknown[] {
  return evaluate(`module._near(${value})`) as unknown[];
}

describe('generated inputs of the Python probe inside dicts and lists', () => {
  it('moves a number of a dict one either way and to zero, not a bool', () => {
    const around = near("{'sku': 'a', 'stock': 3, 'active': True}");
    expect(around).toEqual(
      expect.arrayContaining([
        { sku: 'a', stock: 4, active: true },
        { sku: 'a', stock: 2, active: true },
        { sku: 'a', stock: 0, active: true },
      ]),
    );
    expect(around).not.toContainEqual({ sku: 'a', stock: 3, active: 2 });
  });

  it("varies a list's first item as a value of its own, keeping the others", () => {
    const around = near("[{'sku': 'a', 'stock': 3}, {'sku': 'b', 'stock': 0}]");
    expect(around).toContainEqual([
      { sku: 'a', stock: 4 },
      { sku: 'b', stock: 0 },
    ]);
    expect(near('[5, 6]')).toContainEqual([0, 6]);
    // The last item too, so a lookup keyed on a later item meets other values there.
    expect(near('[5, 6]')).toContainEqual([5, 7]);
    expect(near("('a', 3)")).toContainEqual(['a', 4]);
  });
});

describe('generated inputs around a date in the Python probe', () => {
  it('takes dates as plain data and shifts them a day, two days and a week either way, as the JavaScript probe does', () => {
    const shown = (value: string) => evaluate(`[x.isoformat() for x in module._near(${value})]`, ['import datetime']) as string[];
    expect(shown('datetime.date(2019, 12, 30)')).toEqual([
      '2019-12-31',
      '2019-12-29',
      '2020-01-01',
      '2019-12-28',
      '2020-01-06',
      '2019-12-23',
    ]);
    expect(shown('datetime.datetime(2024, 2, 28, 9, 30)')[0]).toBe('2024-02-29T09:30:00');
    // The calendar's ends: only the days it has.
    expect(shown('datetime.date(1, 1, 1)')).toEqual(['0001-01-02', '0001-01-03', '0001-01-08']);
    expect(evaluate('module.plain([datetime.date(2020, 1, 1)])', ['import datetime'])).toBe(true);
  });
});

describe("generated inputs around a string's marks in the Python probe", () => {
  it('puts a space before the last of each mark, doubles it and swaps it, as the JavaScript probe does', () => {
    expect(near("'a,,b'")).toEqual(expect.arrayContaining(['a, ,b', 'a,, b', 'a,,,b', 'a,<b']));
    expect(near("'x &amp; y'")).toEqual(expect.arrayContaining(['x <amp; y', 'x &amp ; y']));
    expect(near("'ab 12'").filter((s) => typeof s === 'string' && s.includes('<'))).toEqual([]);
  });
});

describe("generated inputs around a string's numbers in the Python probe", () => {
  it('gives each of its last digit runs one more, one less, a digit more and a digit fewer, as the JavaScript probe does', () => {
    expect(near("'1.0.0-alpha.10'")).toEqual(
      expect.arrayContaining(['1.0.0-alpha.11', '1.0.0-alpha.9', '1.0.0-alpha.100', '1.0.0-alpha.1', '1.0.1-alpha.10']),
    );
    expect(near("'v007'")).toEqual(expect.arrayContaining(['v008', 'v006', 'v0070', 'v00']));
    expect(near("'port 0'")).not.toContain('port -1');
  });
});

describe('generated inputs of the Python probe beside a held argument', () => {
  it('gives the call no huge or infinite number, and keeps them for an all-plain call', () => {
    const out = evaluate('{"held": held, "plain": plain}', [
      'class State: pass',
      'fn = types.SimpleNamespace(name=lambda k: k, none_at=set(), values=None)',
      'held = [a[1] for a, _ in module._variants(fn, (State(), 3), {}) if len(a) > 1]',
      'plain = [a[0] for a, _ in module._variants(fn, (3,), {}) if a]',
    ]) as { held: number[]; plain: number[] };
    expect(out.held).toEqual(expect.arrayContaining([4, 2, 0]));
    expect(out.held).not.toContain(1e15);
    expect(out.plain).toContain(1e15);
  });

  it('gives no huge number to a call no alarm could stop: another handler holds SIGALRM', () => {
    const out = evaluate('{"plain": plain}', [
      'import signal',
      'signal.signal(signal.SIGALRM, lambda *a: None)',
      'fn = types.SimpleNamespace(name=lambda k: k, none_at=set(), values=None)',
      'plain = [a[0] for a, _ in module._variants(fn, (3,), {}) if a]',
    ]) as { plain: number[] };
    expect(out.plain).toEqual(expect.arrayContaining([4, 2, 0]));
    expect(out.plain).not.toContain(1e15);
  });
});
