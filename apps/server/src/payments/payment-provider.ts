/** Normalized events every provider's postbacks map to. */
export const PAYMENT_EVENT_TYPES = [
  'subscription_started',
  'subscription_renewed',
  'subscription_cancelled',
  'subscription_expired',
  'subscription_reactivated',
  'credits_purchased',
  'payment_failed',
  'refunded',
  'voided',
  'chargeback',
  'ignored',
] as const;
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

export interface PaymentEvent {
  type: PaymentEventType;
  provider: string;
  /** Unique per provider and event: the idempotency key of the stored postback. */
  key: string;
  transactionId: string | null;
  /** The subscription or purchase at the provider. */
  purchaseId: string | null;
  /** The original transaction of a refund, chargeback or void. */
  relatedTransactionId: string | null;
  /** Our pass-through fields, when the provider echoes them. */
  checkoutId: string | null;
  userId: string | null;
  creatorId: string | null;
  amountCents: number | null;
  eticketid: string | null;
  at: Date;
}

export interface PricingTerms {
  amountCents: number;
  periodDays: number;
  /** Defaults: the first period's amount and length. */
  recurringCents?: number;
  recurringDays?: number;
}

export interface CheckoutRequest {
  checkoutId: string;
  kind: 'credits' | 'subscription';
  amountCents: number;
  credits: number;
  eticketid: string;
  dynamicPricingId: string | null;
  payer: { id: string; name: string; email: string; country: string | null; language: 'en' | 'es' };
  creator: { id: string; handle: string } | null;
  /** Absolute links back to the app. */
  successUrl: string;
  declineUrl: string;
  description: string;
}

export interface PostbackRequest {
  headers: Record<string, string | string[] | undefined>;
  /** Query string and body fields merged (SegPay sends either). */
  fields: Record<string, string>;
}

/** What to answer the provider once a postback is stored (member-management ones want an exact text). */
export interface PostbackAnswer {
  status: number;
  body: string;
}

export class PostbackRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PostbackRefused';
  }
}

export interface PaymentProvider {
  readonly name: string;
  /**
   * Server-side pricing for a subscription (SegPay's DynamicPricingID); null when not needed. The
   * first period (a trial's 0, a bundle's months, a discounted month) and what recurs after it.
   */
  dynamicPricing(req: PricingTerms): Promise<string | null>;
  /** The hosted billing page to send the browser to. */
  buildRedirect(req: CheckoutRequest): string;
  /** Authenticates and parses a postback; throws PostbackRefused for a tampered or unknown one. */
  parsePostback(req: PostbackRequest): PaymentEvent;
  answer(event: PaymentEvent): PostbackAnswer;
}

export function centsOf(price: string | undefined): number | null {
  if (price === undefined || price === '') return null;
  const m = /^(-?)(\d{1,7})(?:\.(\d{1,2}))?$/.exec(price.trim());
  if (!m) return null;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

export function dollars(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
