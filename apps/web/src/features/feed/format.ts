import { isDiscountActive } from '@fanverse/contract';

export type RelativeUnit = 'seconds' | 'minutes' | 'hours' | 'days' | 'months';

/**
 * Relative time of spec §9: seconds, minutes, hours, days (under 30), then months
 * (days divided by 30). Future dates count as 0 seconds.
 */
export function relativeTime(iso: string, now: number = Date.now()): { unit: RelativeUnit; count: number } {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return { unit: 'seconds', count: seconds };
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return { unit: 'minutes', count: minutes };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: 'hours', count: hours };
  const days = Math.floor(hours / 24);
  if (days < 30) return { unit: 'days', count: days };
  return { unit: 'months', count: Math.floor(days / 30) };
}

interface Discounted {
  discountStatus: 'on' | 'off';
  discountPercent: number;
  discountDateLimit: string | null;
}

/**
 * The price to show: the final price and, only while the discount is active, the original price
 * and the percent the creator set (ADR 0016: spec §9's (a − b) / b would show −25% for 20% off).
 * The price itself keeps spec §9's formula (discountedPrice).
 */
export function priceDisplay(
  price: number,
  finalPrice: number,
  discount: Discounted,
  now: Date = new Date(),
): { price: number; original: number | null; percent: number | null } {
  if (!isDiscountActive(discount, now) || finalPrice >= price) {
    return { price, original: null, percent: null };
  }
  return { price: finalPrice, original: price, percent: discount.discountPercent };
}

/** Cents to a dollar amount text: 999 → "9.99". */
export function dollars(cents: number): string {
  return (cents / 100).toFixed(2);
}
