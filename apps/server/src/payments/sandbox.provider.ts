import {
  type CheckoutRequest,
  centsOf,
  PAYMENT_EVENT_TYPES,
  type PaymentEvent,
  type PaymentEventType,
  type PaymentProvider,
  type PostbackAnswer,
  PostbackRefused,
  type PostbackRequest,
  type PricingTerms,
} from './payment-provider.ts';
import { hmac, safeEqual } from './signing.ts';

export const SANDBOX_PAY_PATH = '/api/v1/payments/sandbox/pay';
const SIGNED_FIELDS = [
  'event',
  'tranid',
  'purchaseid',
  'relatedtranid',
  'checkout',
  'userid',
  'creatorid',
  'amount',
  'eticketid',
  'at',
] as const;
export type SandboxFields = Partial<Record<(typeof SIGNED_FIELDS)[number], string>>;

/**
 * The built-in processor: a billing page served by the app and postbacks signed with a key derived
 * from the app secret, sent to the app's own postback endpoint like a real processor would.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  private readonly key: string;

  constructor(appSecret: string) {
    this.key = hmac(appSecret, 'fanverse-sandbox-payments');
  }

  async dynamicPricing(req: PricingTerms): Promise<string | null> {
    return `sbx-dp-${req.amountCents}-${req.periodDays}-${req.recurringCents ?? req.amountCents}-${req.recurringDays ?? req.periodDays}`;
  }

  pageSignature(checkoutId: string): string {
    return hmac(this.key, `page:${checkoutId}`);
  }

  checkPage(checkoutId: string, sig: string): boolean {
    return safeEqual(this.pageSignature(checkoutId), sig);
  }

  buildRedirect(req: CheckoutRequest): string {
    // The page speaks the payer's language, as a real processor's page does (Segpay: paypagelanguage).
    const q = new URLSearchParams({
      checkout: req.checkoutId,
      sig: this.pageSignature(req.checkoutId),
      lang: req.payer.language,
    });
    return `${SANDBOX_PAY_PATH}?${q}`;
  }

  /** A postback body as the sandbox processor sends it, with its signature. */
  sign(fields: SandboxFields): Record<string, string> {
    const clean: Record<string, string> = {};
    for (const k of SIGNED_FIELDS) if (fields[k] !== undefined) clean[k] = fields[k] as string;
    return { ...clean, sig: hmac(this.key, canonical(clean)) };
  }

  parsePostback(req: PostbackRequest): PaymentEvent {
    const f = req.fields;
    const signed: Record<string, string> = {};
    for (const k of SIGNED_FIELDS) if (f[k] !== undefined) signed[k] = f[k] as string;
    if (!f.sig || !safeEqual(hmac(this.key, canonical(signed)), f.sig))
      throw new PostbackRefused('bad signature');
    const type = f.event as PaymentEventType;
    if (!PAYMENT_EVENT_TYPES.includes(type)) throw new PostbackRefused('unknown event');
    const tranid = f.tranid || null;
    const at = f.at ? new Date(f.at) : new Date();
    if (Number.isNaN(at.getTime())) throw new PostbackRefused('bad time');
    return {
      type,
      provider: this.name,
      key: `${tranid ?? `${f.purchaseid}:${f.at}`}:${type}`,
      transactionId: tranid,
      purchaseId: f.purchaseid || null,
      relatedTransactionId: f.relatedtranid || null,
      checkoutId: f.checkout || null,
      userId: f.userid || null,
      creatorId: f.creatorid || null,
      amountCents: centsOf(f.amount),
      eticketid: f.eticketid || null,
      at,
    };
  }

  answer(): PostbackAnswer {
    return { status: 200, body: 'OK' };
  }
}

function canonical(fields: Record<string, string>): string {
  return Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('&');
}
