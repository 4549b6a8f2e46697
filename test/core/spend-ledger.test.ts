// The day a spend counts for, and the in-memory ledger of a process without a store (the stores'
// ledgers are checked by the run store conformance suite).
import { describe, expect, it } from 'vitest';
import { createMemorySpendLedger, utcDay } from '../../src/core/spend-ledger.ts';

describe('utcDay', () => {
  it('is the UTC date, whatever the local time zone says', () => {
    expect(utcDay(new Date('2025-03-01T00:00:00Z'))).toBe('2025-03-01');
    expect(utcDay(new Date('2025-03-01T23:59:59.999Z'))).toBe('2025-03-01');
    expect(utcDay(new Date('2025-03-02T01:30:00+02:00'))).toBe('2025-03-01');
    expect(utcDay(new Date('2024-12-31T20:00:00-05:00'))).toBe('2025-01-01');
  });

  it('is today by default', () => {
    const before = new Date().toISOString().slice(0, 10);
    const day = utcDay();
    const after = new Date().toISOString().slice(0, 10);
    expect([before, after]).toContain(day);
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('refuses an invalid date', () => {
    expect(() => utcDay(new Date('not a date'))).toThrow(TypeError);
  });
});

describe('the memory spend ledger', () => {
  it('adds up per repository and day, zero where nothing was spent', async () => {
    const ledger = createMemorySpendLedger();
    expect(await ledger.spentOn('acme/shop', '2025-03-01')).toEqual({ usd: 0, tokens: 0 });
    await ledger.addSpend('acme/shop', '2025-03-01', { usd: 0.25, tokens: 100 });
    await ledger.addSpend('acme/shop', '2025-03-01', { usd: 0.5, tokens: 50 });
    await ledger.addSpend('acme/shop', '2025-03-02', { usd: 1, tokens: 1 });
    await ledger.addSpend('acme/cart', '2025-03-01', { usd: 2, tokens: 2 });
    expect(await ledger.spentOn('acme/shop', '2025-03-01')).toEqual({ usd: 0.75, tokens: 150 });
    expect(await ledger.spentOn('acme/shop', '2025-03-02')).toEqual({ usd: 1, tokens: 1 });
    expect(await ledger.spentOn('acme/cart', '2025-03-01')).toEqual({ usd: 2, tokens: 2 });
  });

  it('loses no increment when many adds run at once', async () => {
    const ledger = createMemorySpendLedger();
    await Promise.all(Array.from({ length: 50 }, () => ledger.addSpend('acme/shop', '2025-03-01', { usd: 0.1, tokens: 7 })));
    const spent = await ledger.spentOn('acme/shop', '2025-03-01');
    expect(spent.tokens).toBe(350);
    expect(Math.abs(spent.usd - 5)).toBeLessThan(1e-9);
  });

  it('hands out copies: changing a total read does not change the ledger', async () => {
    const ledger = createMemorySpendLedger();
    await ledger.addSpend('acme/shop', '2025-03-01', { usd: 1, tokens: 1 });
    const spent = await ledger.spentOn('acme/shop', '2025-03-01');
    spent.tokens = 1_000_000;
    expect(await ledger.spentOn('acme/shop', '2025-03-01')).toEqual({ usd: 1, tokens: 1 });
  });

  it('refuses bad arguments with a TypeError naming them, recording nothing', async () => {
    const ledger = createMemorySpendLedger();
    await expect(ledger.addSpend('acme/shop', '2025-03-1', { usd: 1, tokens: 1 })).rejects.toThrow(/`day`/);
    await expect(ledger.spentOn('acme/shop', '1 March 2025')).rejects.toThrow(TypeError);
    await expect(ledger.addSpend('acme/shop', '2025-03-01', { usd: -1, tokens: 1 })).rejects.toThrow(/`spend\.usd`/);
    await expect(ledger.addSpend('acme/shop', '2025-03-01', { usd: Number.NaN, tokens: 1 })).rejects.toThrow(/`spend\.usd`/);
    await expect(ledger.addSpend('acme/shop', '2025-03-01', { usd: 1, tokens: Number.POSITIVE_INFINITY })).rejects.toThrow(
      /`spend\.tokens`/,
    );
    await expect(ledger.addSpend('acme/shop', '2025-03-01', { usd: 1, tokens: -1 })).rejects.toThrow(/`spend\.tokens`/);
    await expect(ledger.addSpend('', '2025-03-01', { usd: 1, tokens: 1 })).rejects.toThrow(/`repository`/);
    expect(await ledger.spentOn('acme/shop', '2025-03-01')).toEqual({ usd: 0, tokens: 0 });
  });
});
