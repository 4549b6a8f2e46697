import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discountRate } from '../src/discounts.js';
import { invoiceTotals, lineTotal } from '../src/invoice.js';

describe('discountRate', () => {
  it('gives no discount below ten units', () => {
    assert.equal(discountRate(9), 0);
  });
  it('gives 5% from ten units on', () => {
    assert.equal(discountRate(10), 0.05);
    assert.equal(discountRate(49), 0.05);
  });
  it('gives 15% for a hundred units or more', () => {
    assert.equal(discountRate(250), 0.15);
  });
});

describe('invoiceTotals', () => {
  it('adds VAT to the discounted net amount', () => {
    const totals = invoiceTotals([
      { unitPrice: 2.5, quantity: 4 },
      { unitPrice: 1, quantity: 50 },
    ]);
    assert.deepEqual(totals, { net: 55, vat: 11, gross: 66 });
  });
  it('refuses a negative quantity', () => {
    assert.throws(() => lineTotal({ unitPrice: 1, quantity: -1 }), RangeError);
  });
});
