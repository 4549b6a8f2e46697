import { discountRate } from './discounts.js';

const roundCents = (amount) => Math.round(amount * 100) / 100;

/** Net amount of one invoice line after its volume discount. */
export function lineTotal({ unitPrice, quantity }) {
  if (quantity < 0) throw new RangeError('quantity must not be negative');
  const gross = unitPrice * quantity;
  return roundCents(gross * (1 - discountRate(quantity)));
}

/** Totals of an invoice: net, VAT and gross, in the invoice's currency. */
export function invoiceTotals(lines, vatRate = 0.2) {
  const net = roundCents(lines.reduce((sum, line) => sum + lineTotal(line), 0));
  const vat = roundCents(net * vatRate);
  return { net, vat, gross: roundCents(net + vat) };
}
