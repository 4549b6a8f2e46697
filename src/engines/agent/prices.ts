// What a model costs, in US dollars per million tokens. The table is a snapshot of the providers'
// published list prices; `FIXLOOP_PRICES` (a JSON file or inline JSON) adds or overrides entries,
// e.g. `{"my-local-model": {"input": 0, "output": 0}}`. Text starting with `{` or `[` is JSON, anything else a path.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { TokenUsage } from './chat-model.ts';

export interface Price {
  /** USD per million prompt tokens. */
  input: number;
  /** USD per million completion tokens. */
  output: number;
}

export const DEFAULT_PRICES: Readonly<Record<string, Price>> = Object.freeze({
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  o3: { input: 2, output: 8 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
});

const priceFile = z.record(z.string().min(1), z.object({ input: z.number().min(0), output: z.number().min(0) }).strict());

export class PriceTableError extends Error {}

/** The table with `FIXLOOP_PRICES` applied: inline JSON when it starts with `{`, else a file path. */
export function loadPrices(setting: string | undefined): Record<string, Price> {
  if (!setting?.trim()) return { ...DEFAULT_PRICES };
  let text = setting;
  if (!/^[[{]/.test(setting.trim())) {
    try {
      text = readFileSync(setting, 'utf8');
    } catch (error) {
      throw new PriceTableError(
        `FIXLOOP_PRICES: cannot read ${setting}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new PriceTableError(
      'FIXLOOP_PRICES: not valid JSON (expected {"<model>": {"input": <USD per 1M tokens>, "output": <USD per 1M tokens>}})',
    );
  }
  const result = priceFile.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new PriceTableError(`FIXLOOP_PRICES: ${issue?.path.join('.') || '(top)'}: ${issue?.message ?? 'invalid'}`);
  }
  return { ...DEFAULT_PRICES, ...result.data };
}

/** The price of a model: its exact name, else the longest table entry its name starts with (dated versions). */
export function priceOf(model: string, table: Record<string, Price>): Price | null {
  const exact = table[model];
  if (exact) return exact;
  const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  let best: string | null = null;
  for (const name of Object.keys(table)) {
    if ((bare === name || bare.startsWith(`${name}-`)) && (best === null || name.length > best.length)) best = name;
  }
  return best ? (table[best] ?? null) : null;
}

export function costOf(usage: TokenUsage, price: Price | null): number {
  if (!price) return 0;
  return (usage.input * price.input + usage.output * price.output) / 1_000_000;
}
