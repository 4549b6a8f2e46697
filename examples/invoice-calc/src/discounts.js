// Volume discount tiers: the more units on a line, the lower the unit price.
export const TIERS = [
  { minQuantity: 100, rate: 0.15 },
  { minQuantity: 50, rate: 0.1 },
  { minQuantity: 10, rate: 0.05 },
];

/** Discount rate for a line of `quantity` units: the best tier whose minimum the quantity reaches. */
export function discountRate(quantity) {
  for (const tier of TIERS) {
    if (quantity > tier.minQuantity) {
      return tier.rate;
    }
  }
  return 0;
}
