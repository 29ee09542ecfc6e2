import type { MoneyConfig } from '../config.ts';
import {
  type CheckoutRequest,
  centsOf,
  dollars,
  type PaymentEvent,
  type PaymentEventType,
  type PaymentProvider,
  type PostbackAnswer,
  PostbackRefused,
  type PostbackRequest,
  type PricingTerms,
} from './payment-provider.ts';
import { hmac, safeEqual } from './signing.ts';

/** SegPay's SRS DynamicRecurring call (server side only): answers a DynamicPricingID. */
export interface SegpaySrsClient {
  dynamicRecurring(terms: {
    initialAmount: string;
    initialLength: number;
    recurringAmount: string;
    recurringLength: number;
  }): Promise<string>;
}

/** The HTTP SRS client (HTTP basic auth with the SRS user id and access key). */
export class HttpSegpaySrsClient implements SegpaySrsClient {
  constructor(private readonly cfg: MoneyConfig['segpay']) {}

  async dynamicRecurring(terms: {
    initialAmount: string;
    initialLength: number;
    recurringAmount: string;
    recurringLength: number;
  }): Promise<string> {
    if (!this.cfg.srsUser || !this.cfg.srsKey)
      throw new Error('SEGPAY_SRS_USER and SEGPAY_SRS_KEY are needed');
    const q = new URLSearchParams({
      InitialAmount: terms.initialAmount,
      InitialLength: String(terms.initialLength),
      RecurringAmount: terms.recurringAmount,
      RecurringLength: String(terms.recurringLength),
    });
    const auth = Buffer.from(`${this.cfg.srsUser}:${this.cfg.srsKey}`).toString('base64');
    const res = await fetch(`${this.cfg.srsUrl}?${q}`, {
      headers: { authorization: `Basic ${auth}` },
      signal: AbortSignal.timeout(10_000),
    });
    const text = (await res.text()).trim();
    const id = /(\d+)/.exec(text)?.[1];
    if (!res.ok || !id) throw new Error(`SegPay SRS answered ${res.status}`);
    return id;
  }
}

/** Our pass-through fields, signed so a postback cannot be pointed at another checkout or user. */
const PASS_THROUGH = ['checkout', 'userid', 'creatorid', 'priceby'] as const;

/** SegPay: hosted page poset.cgi, postbacks mapped per shared/PAYMENTS.md. */
export class SegpayProvider implements PaymentProvider {
  readonly name = 'segpay';

  constructor(
    private readonly cfg: MoneyConfig['segpay'],
    private readonly srs: SegpaySrsClient,
  ) {}

  private key(): string {
    if (!this.cfg.hmacKey) throw new Error('SEGPAY_HMAC_KEY is needed');
    return this.cfg.hmacKey;
  }

  passThroughSignature(fields: Partial<Record<(typeof PASS_THROUGH)[number], string>>): string {
    return hmac(this.key(), PASS_THROUGH.map((k) => `${k}=${fields[k] ?? ''}`).join('&'));
  }

  async dynamicPricing(req: PricingTerms): Promise<string | null> {
    return this.srs.dynamicRecurring({
      initialAmount: dollars(req.amountCents),
      initialLength: req.periodDays,
      recurringAmount: dollars(req.recurringCents ?? req.amountCents),
      recurringLength: req.recurringDays ?? req.periodDays,
    });
  }

  buildRedirect(req: CheckoutRequest): string {
    const passThrough = {
      checkout: req.checkoutId,
      userid: req.payer.id,
      creatorid: req.creator?.id ?? '',
      priceby: req.kind === 'subscription' ? 'monthly' : 'bag',
    };
    const q = new URLSearchParams();
    q.set('x-eticketid', req.eticketid);
    if (req.kind === 'subscription' && req.dynamicPricingId) q.set('DynamicPricingID', req.dynamicPricingId);
    if (req.kind === 'subscription') q.set('amount', dollars(req.amountCents));
    q.set('x-billname', req.payer.name);
    q.set('x-billemail', req.payer.email);
    if (req.payer.country) q.set('x-billcntry', req.payer.country.toUpperCase());
    q.set('paypagelanguage', req.payer.language.toUpperCase());
    q.set('x-auth-link', req.successUrl);
    q.set('x-decl-link', req.declineUrl);
    for (const [k, v] of Object.entries(passThrough)) q.set(k, v);
    if (req.creator) {
      q.set('price', dollars(req.amountCents));
      q.set('sitepath', `/${req.creator.handle}`);
    }
    q.set('description', req.description);
    q.set('fvsig', this.passThroughSignature(passThrough));
    return `${this.cfg.billingUrl}?${q.toString().replaceAll('%3A', ':')}`;
  }

  parsePostback(req: PostbackRequest): PaymentEvent {
    this.checkBasicAuth(req.headers.authorization);
    const f = lower(req.fields);
    const action = (f.action ?? '').toLowerCase();
    if (!action) throw new PostbackRefused('no action');
    const passThrough = {
      checkout: f.checkout ?? '',
      userid: f.userid ?? '',
      creatorid: f.creatorid ?? '',
      priceby: f.priceby ?? '',
    };
    if (action !== 'probe') {
      const sig = f.fvsig ?? '';
      if (!sig || !safeEqual(this.passThroughSignature(passThrough), sig))
        throw new PostbackRefused('bad signature');
    }
    const type = mapEvent(action, f);
    const tranid = f.tranid || null;
    const at = f.transtime ? new Date(f.transtime) : new Date();
    const idPart = tranid ?? `${f.purchaseid ?? ''}:${f.transguid || f.transtime || ''}`;
    return {
      type,
      provider: this.name,
      key: `${idPart}:${action}:${type}`,
      transactionId: tranid,
      purchaseId: f.purchaseid || null,
      relatedTransactionId: f.relatedtranid || null,
      checkoutId: passThrough.checkout || null,
      userId: passThrough.userid || null,
      creatorId: passThrough.creatorid || null,
      amountCents: centsOf(f.price),
      eticketid: f.eticketid || null,
      at: Number.isNaN(at.getTime()) ? new Date() : at,
    };
  }

  /** Member-management postbacks are synchronous and must answer the configured text. */
  answer(_event: PaymentEvent): PostbackAnswer {
    return { status: 200, body: 'OK' };
  }

  private checkBasicAuth(header: string | string[] | undefined): void {
    const { postbackUser, postbackPassword } = this.cfg;
    if (!postbackUser || !postbackPassword) throw new PostbackRefused('postback credentials not configured');
    const value = Array.isArray(header) ? header[0] : header;
    const expected = `Basic ${Buffer.from(`${postbackUser}:${postbackPassword}`).toString('base64')}`;
    if (!value || !safeEqual(value, expected)) throw new PostbackRefused('bad credentials');
  }
}

/** action / stage / approved / trantype → normalized event (shared/PAYMENTS.md "mapping"). */
export function mapEvent(action: string, f: Record<string, string>): PaymentEventType {
  const trantype = (f.trantype ?? '').toLowerCase();
  const stage = (f.stage ?? '').toLowerCase();
  switch (action) {
    case 'probe':
    case 'enable':
      return 'ignored';
    case 'cancel':
      return 'subscription_cancelled';
    case 'disable':
      return 'subscription_expired';
    case 'reactivation':
      return 'subscription_reactivated';
    case 'void':
      return 'voided';
    case 'auth': {
      if ((f.approved ?? '').toLowerCase() !== 'yes') return 'payment_failed';
      if (trantype === 'credit') return 'refunded';
      if (trantype === 'charge') return 'chargeback';
      if (trantype !== 'sale') throw new PostbackRefused('unknown trantype');
      if (stage === 'rebill' || stage === 'conversion') return 'subscription_renewed';
      if (stage === 'initial' || stage === 'instantconversion' || stage === '')
        return f.priceby === 'bag' ? 'credits_purchased' : 'subscription_started';
      throw new PostbackRefused('unknown stage');
    }
    default:
      throw new PostbackRefused('unknown action');
  }
}

function lower(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) out[k.toLowerCase()] = v;
  return out;
}
