// Zod-free (the web app's feed uses it on its first load without the schemas).

/** Discount price of spec §9: price − price × percent / 100, applied only while on and before the limit. */
export function discountedPrice(
  price: number,
  discount: { discountStatus: 'on' | 'off'; discountPercent: number; discountDateLimit: string | null },
  now: Date = new Date(),
): number {
  if (!isDiscountActive(discount, now)) return price;
  return Math.round(price - (price * discount.discountPercent) / 100);
}

export function isDiscountActive(
  d: { discountStatus: 'on' | 'off'; discountPercent: number; discountDateLimit: string | null },
  now: Date = new Date(),
): boolean {
  if (d.discountStatus !== 'on' || d.discountPercent <= 0) return false;
  return d.discountDateLimit === null || Date.parse(d.discountDateLimit) > now.getTime();
}
