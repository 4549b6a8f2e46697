// Model prices: exact names, dated versions (longest prefix wins), provider prefixes, and the
// FIXLOOP_PRICES override (inline JSON or a file), with messages that name the variable.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costOf, DEFAULT_PRICES, loadPrices, priceOf, PriceTableError } from '../../../src/engines/agent/prices.ts';

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('priceOf', () => {
  it('finds a model by its exact name', () => {
    expect(priceOf('gpt-4.1', DEFAULT_PRICES)).toEqual({ input: 2, output: 8 });
    expect(priceOf('gpt-4o-mini', DEFAULT_PRICES)).toEqual({ input: 0.15, output: 0.6 });
    expect(priceOf('claude-sonnet-4-5', DEFAULT_PRICES)).toEqual({ input: 3, output: 15 });
  });

  it('prices a dated model name as its family, the longest matching name winning', () => {
    expect(priceOf('claude-sonnet-4-5-20250929', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['claude-sonnet-4-5']);
    expect(priceOf('claude-sonnet-4-20250514', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['claude-sonnet-4']);
    expect(priceOf('gpt-4.1-mini-2025-04-14', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-4.1-mini']);
    expect(priceOf('gpt-4.1-2025-04-14', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-4.1']);
    expect(priceOf('claude-opus-4-1-20250805', DEFAULT_PRICES)).toEqual({ input: 15, output: 75 });
    expect(priceOf('gpt-4o-2024-08-06', DEFAULT_PRICES)).toEqual({ input: 2.5, output: 10 });
  });

  it('does not take a name for another one it merely starts with', () => {
    // `gpt-4oo` is not `gpt-4o` followed by a version.
    expect(priceOf('gpt-4oo', DEFAULT_PRICES)).toBeNull();
    expect(priceOf('gpt-5.1', DEFAULT_PRICES)).toBeNull();
    expect(priceOf('o3x', DEFAULT_PRICES)).toBeNull();
  });

  it('drops a provider prefix (OpenRouter and LiteLLM style names)', () => {
    expect(priceOf('openai/gpt-4o', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-4o']);
    expect(priceOf('openai/gpt-4o-mini', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceOf('openrouter/anthropic/claude-haiku-4-5-20251001', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['claude-haiku-4-5']);
  });

  it('prefers an exact entry for a prefixed name over its bare name', () => {
    const table = { ...DEFAULT_PRICES, 'openai/gpt-4o': { input: 9, output: 9 } };
    expect(priceOf('openai/gpt-4o', table)).toEqual({ input: 9, output: 9 });
  });

  it('answers null for an unknown model', () => {
    expect(priceOf('llama3.1:8b', DEFAULT_PRICES)).toBeNull();
    expect(priceOf('mistral/mistral-large', DEFAULT_PRICES)).toBeNull();
    expect(priceOf('', DEFAULT_PRICES)).toBeNull();
  });
});

describe('costOf', () => {
  it('is USD per million tokens, input and output priced apart', () => {
    expect(costOf({ input: 1_000_000, output: 500_000 }, { input: 2, output: 8 })).toBe(6);
    expect(costOf({ input: 100, output: 20 }, { input: 0.4, output: 1.6 })).toBeCloseTo(0.000072, 12);
    expect(costOf({ input: 0, output: 0 }, { input: 15, output: 75 })).toBe(0);
  });

  it('is 0 for an unknown price', () => {
    expect(costOf({ input: 1_000_000, output: 1_000_000 }, null)).toBe(0);
  });
});

describe('loadPrices', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fixloop-prices-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is the default table, as a copy, without FIXLOOP_PRICES', () => {
    for (const setting of [undefined, '', '   ']) {
      const table = loadPrices(setting);
      expect(table).toEqual(DEFAULT_PRICES);
      expect(table).not.toBe(DEFAULT_PRICES);
    }
    const table = loadPrices(undefined);
    table['gpt-4o'] = { input: 0, output: 0 };
    expect(DEFAULT_PRICES['gpt-4o']).toEqual({ input: 2.5, output: 10 });
  });

  it('adds and overrides entries from inline JSON', () => {
    const table = loadPrices(' {"my-local-model": {"input": 0, "output": 0}, "gpt-4o": {"input": 1, "output": 2}}');
    expect(table['my-local-model']).toEqual({ input: 0, output: 0 });
    expect(table['gpt-4o']).toEqual({ input: 1, output: 2 });
    expect(table['gpt-4.1']).toEqual({ input: 2, output: 8 });
    expect(Object.keys(table)).toHaveLength(Object.keys(DEFAULT_PRICES).length + 1);
    // An override is found for dated names too.
    expect(priceOf('gpt-4o-2024-08-06', table)).toEqual({ input: 1, output: 2 });
  });

  it('reads a file when the setting does not start with `{`', async () => {
    const file = join(dir, 'prices.json');
    await writeFile(file, '{\n  "qwen2.5-coder": { "input": 0.1, "output": 0.2 }\n}\n');
    const table = loadPrices(file);
    expect(table['qwen2.5-coder']).toEqual({ input: 0.1, output: 0.2 });
    expect(priceOf('qwen2.5-coder-32b', table)).toEqual({ input: 0.1, output: 0.2 });
  });

  it('names FIXLOOP_PRICES and the file when the file cannot be read', () => {
    const missing = join(dir, 'nope.json');
    const error = thrown(() => loadPrices(missing));
    expect(error).toBeInstanceOf(PriceTableError);
    expect(error.message).toBe(`FIXLOOP_PRICES: cannot read ${missing}: ENOENT`);
    expect(thrown(() => loadPrices(dir)).message).toBe(`FIXLOOP_PRICES: cannot read ${dir}: EISDIR`);
  });

  it('names FIXLOOP_PRICES and the expected shape for text that is not JSON', async () => {
    const expected =
      'FIXLOOP_PRICES: not valid JSON (expected {"<model>": {"input": <USD per 1M tokens>, "output": <USD per 1M tokens>}})';
    const error = thrown(() => loadPrices('{"gpt-4o": {input: 1}}'));
    expect(error).toBeInstanceOf(PriceTableError);
    expect(error.message).toBe(expected);
    const file = join(dir, 'broken.json');
    await writeFile(file, 'gpt-4o: 1\n');
    expect(thrown(() => loadPrices(file)).message).toBe(expected);
  });

  it('refuses a negative price, a string price, an unknown field and a non-object, naming the entry', async () => {
    const message = (setting: string) => {
      const error = thrown(() => loadPrices(setting));
      expect(error).toBeInstanceOf(PriceTableError);
      return error.message;
    };
    expect(message('{"m": {"input": -1, "output": 0}}')).toBe('FIXLOOP_PRICES: m.input: Too small: expected number to be >=0');
    expect(message('{"m": {"input": 1, "output": -0.5}}')).toBe('FIXLOOP_PRICES: m.output: Too small: expected number to be >=0');
    expect(message('{"m": {"input": "1", "output": 1}}')).toBe(
      'FIXLOOP_PRICES: m.input: Invalid input: expected number, received string',
    );
    expect(message('{"m": {"input": 1, "output": 1, "cached": 0}}')).toBe('FIXLOOP_PRICES: m: Unrecognized key: "cached"');
    expect(message('{"m": 3}')).toBe('FIXLOOP_PRICES: m: Invalid input: expected object, received number');
    const file = join(dir, 'array.json');
    await writeFile(file, '[]');
    expect(message(file)).toBe('FIXLOOP_PRICES: (top): Invalid input: expected record, received array');
  });
});
