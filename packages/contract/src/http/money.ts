import { z } from 'zod';
import { GIFT_KINDS } from '../constants.ts';
import { pageQuerySchema, pageStatisticsSchema } from '../paging.ts';
import { mediaSchema, publicUserSchema, vaultMediaField } from './content.ts';
import { PAYOUT_PERIODS } from './settings.ts';

/** Money amounts travel as integer cents; credits as integer credits. Never floats. */
const cents = z.number().int();
const credits = z.number().int();

export const creditBagSchema = z.object({
  id: z.string(),
  credits: credits,
  priceCents: cents,
  eticketid: z.string(),
});
export type CreditBag = z.infer<typeof creditBagSchema>;
export const creditBagsResponseSchema = z.object({ bags: z.array(creditBagSchema) });

export const checkoutCreditsRequestSchema = z.object({ bag: z.string().trim().min(1).max(40) });
export const checkoutSubscriptionRequestSchema = z.object({
  creator: z.string().trim().min(1).max(40),
  /** A bundle of the creator (3, 6 or 12 months), or an offer link's code (issue 19); not both. */
  bundle: z.union([z.literal(3), z.literal(6), z.literal(12)]).optional(),
  offer: z.string().trim().min(4).max(40).optional(),
});
export const checkoutResponseSchema = z.object({ redirectUrl: z.string(), checkout: z.string() });

export const walletResponseSchema = z.object({
  credits: credits,
  /** Value of one credit in cents (what a creator earns per credit before the split). */
  creditValueCents: cents,
  freeCreditsGranted: z.boolean(),
});

export const CREDIT_HISTORY_KINDS = [
  'credits_purchase',
  'free_credits',
  'unlock',
  'message_unlock',
  'tip',
  'flowers',
  'gift',
  'live_ticket',
  'refund',
  'chargeback',
] as const;

export const creditsHistoryItemSchema = z.object({
  _id: z.string(),
  kind: z.string(),
  /** Change of the balance: positive for purchases, negative for spends. */
  credits: credits,
  /** The creator paid (name, handle, avatar), null for purchases and free credits. */
  creator: publicUserSchema.nullable(),
  post: z.string().nullable(),
  date: z.string(),
});
export const creditsHistoryQuerySchema = pageQuerySchema(24);
export const creditsHistoryResponseSchema = z.object({
  items: z.array(creditsHistoryItemSchema),
  statistics: pageStatisticsSchema,
});

export const transactionItemSchema = z.object({
  purchaseId: z.string().nullable(),
  transactionId: z.string().nullable(),
  /** Cents charged (negative for a refund or chargeback); 0 for credit spends. */
  amount: cents,
  credits: credits,
  type: z.string(),
  /** The creator paid (name, handle, avatar), null for purchases of credits. */
  creator: publicUserSchema.nullable(),
  date: z.string(),
  dateReview: z.string(),
});
export const transactionsQuerySchema = pageQuerySchema(24);
export const transactionsResponseSchema = z.object({
  items: z.array(transactionItemSchema),
  statistics: pageStatisticsSchema,
});

export const spendResponseSchema = z.object({
  success: z.literal(true),
  /** The wallet balance after the spend. */
  credits: credits,
  /** Credits charged by this call (0 when the content was already unlocked). */
  charged: credits,
});

export const tipRequestSchema = z.object({
  creator: z.string().trim().min(1).max(40),
  credits: z.coerce.number().int('VALIDATION_FAILED').min(1).max(100_000),
  post: z.string().uuid().optional(),
  /** Sent during this live: shown on the stream, counted under the "live" earnings category. */
  live: z.string().uuid().optional(),
  message: z.string().trim().max(280).optional(),
});

export const giftRequestSchema = z.object({
  creator: z.string().trim().min(1).max(40),
  kind: z.enum(GIFT_KINDS),
  post: z.string().uuid().optional(),
  /** Sent during this live: shown on the stream, counted under the "live" earnings category. */
  live: z.string().uuid().optional(),
  message: z.string().trim().max(280).optional(),
});

export const SUBSCRIPTION_STATUSES = ['active', 'expired', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** A payout waits in a batch (scheduled) until an administrator marks it paid or failed. */
export const PAYOUT_STATUSES = ['scheduled', 'paid', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
export const PAYOUT_DECISIONS = ['paid', 'failed'] as const satisfies readonly PayoutStatus[];

export const subscriptionItemSchema = z.object({
  _id: z.string(),
  creator: publicUserSchema,
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** When the subscription started. */
  date: z.string(),
  /** Paid period: its end (access until then). */
  period: z.object({ end: z.string(), days: z.number().int() }),
  lastActivation: z.string().nullable(),
  lastRenewal: z.string().nullable(),
  priceCents: cents.nullable(),
  DynamicPricingID: z.string().nullable(),
  /**
   * The next charge (date and amount) when the subscription renews by itself; null when it will
   * not (cancelled, expired, or no payment on file).
   */
  nextCharge: z.object({ at: z.string(), amountCents: cents }).nullable(),
});
export type SubscriptionItem = z.infer<typeof subscriptionItemSchema>;
export const subscriptionsResponseSchema = z.object({ items: z.array(subscriptionItemSchema) });
export const subscriptionActionResponseSchema = z.object({
  subscription: subscriptionItemSchema,
  /** Set when renewing needs a new payment: go to the hosted billing page. */
  redirectUrl: z.string().optional(),
});
/** Subscription bundles: months paid at once (issue 19). */
export const BUNDLE_MONTHS = [3, 6, 12] as const;
export type BundleMonths = (typeof BUNDLE_MONTHS)[number];
/** Offer links: a free trial, or a discount on the first period. */
export const OFFER_KINDS = ['trial', 'discount'] as const;
export type OfferKind = (typeof OFFER_KINDS)[number];

const bundleMonths = z.union([z.literal(3), z.literal(6), z.literal(12)]);
export const bundleSchema = z.object({
  months: bundleMonths,
  /** The percent the creator set (ADR 0016); the price follows spec §9's rounding. */
  discountPercent: z.number().int().min(1).max(90),
});
export const bundleOfferSchema = bundleSchema.extend({
  /** What the bundle costs (months × price, discounted), and the undiscounted total. */
  priceCents: cents,
  fullPriceCents: cents,
});
export const saveBundlesSchema = z.object({ bundles: z.array(bundleSchema).max(3) });
export const offerCodeSchema = z.object({ code: z.string().trim().min(4).max(40) });
export const createOfferLinkSchema = z
  .object({
    kind: z.enum(OFFER_KINDS),
    trialDays: z.number().int().min(1).max(30).optional(),
    discountPercent: z.number().int().min(1).max(90).optional(),
    expiresAt: z.string().datetime({ offset: true }),
    maxUses: z.number().int().min(1).max(100_000),
  })
  .refine((v) => (v.kind === 'trial' ? v.trialDays !== undefined : v.discountPercent !== undefined), {
    message: 'required',
    path: ['kind'],
  });
export const offerLinkSchema = z.object({
  _id: z.string(),
  code: z.string(),
  kind: z.enum(OFFER_KINDS),
  trialDays: z.number().int(),
  discountPercent: z.number().int(),
  expiresAt: z.string(),
  maxUses: z.number().int(),
  uses: z.number().int(),
});
export const welcomeMessageSchema = z.object({
  text: z.string().trim().min(1).max(1024),
  active: z.boolean(),
  /** Price in credits of the attached media (0: free); locked for the subscriber until paid. */
  price: z.coerce.number().int().min(0).max(100_000).default(0),
  /** Vault files sent with the message (ADR 0032). */
  vaultMedia: vaultMediaField,
});
/** The welcome message as its creator sees it: the attached vault files presented. */
export const welcomeMessageViewSchema = z.object({
  text: z.string(),
  active: z.boolean(),
  price: z.number().int(),
  media: z.array(mediaSchema),
});
export const creatorOffersResponseSchema = z.object({
  bundles: z.array(bundleOfferSchema),
  links: z.array(offerLinkSchema),
  welcome: welcomeMessageViewSchema.nullable(),
});
/** What a fan sees of an offer link before paying. */
export const offerViewSchema = z.object({
  code: z.string(),
  creator: publicUserSchema,
  kind: z.enum(OFFER_KINDS),
  trialDays: z.number().int(),
  discountPercent: z.number().int(),
  expiresAt: z.string(),
  /** Charged now (0 for a trial), then every period after it. */
  firstCents: cents,
  recurringCents: cents,
  remaining: z.number().int(),
});

/** The one-click cancel link of a renewal mail: a signed token that can only cancel that subscription. */
export const cancelLinkSchema = z.object({ token: z.string().trim().min(10).max(400) });
export const cancelLinkResponseSchema = z.object({
  creator: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** Access lasts until then. */
  periodEnd: z.string(),
  nextCharge: subscriptionItemSchema.shape.nextCharge,
});
export const creatorParamSchema = z.object({ creator: z.string().trim().min(1).max(40) });

export const subscribersQuerySchema = pageQuerySchema(10);
export const subscriberItemSchema = z.object({
  user: publicUserSchema,
  status: z.enum(SUBSCRIPTION_STATUSES),
  date: z.string(),
  periodEnd: z.string(),
});
/** Spec §3/§7: items, page, total, limit. */
export const subscribersResponseSchema = z.object({
  items: z.array(subscriberItemSchema),
  page: z.number().int(),
  total: z.number().int(),
  limit: z.number().int(),
});

/** Dollars with up to two decimals ("9.99" or 9.99), parsed to cents without floating point. */
export const dollarsSchema = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,5}(\.\d{1,2})?$/.test(v), 'VALIDATION_FAILED')
  .transform((v) => {
    const [whole = '0', frac = ''] = v.split('.');
    return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  });

export const pricingRequestSchema = z.object({
  price: dollarsSchema,
  discountStatus: z.enum(['on', 'off']).default('off'),
  discountPercent: z.coerce.number().int().min(0).max(99).default(0),
  discountDateLimit: z.string().datetime({ offset: true }).nullable().optional(),
});
export const pricingResponseSchema = z.object({
  priceCents: cents,
  discountStatus: z.enum(['on', 'off']),
  discountPercent: z.number().int(),
  discountDateLimit: z.string().nullable(),
  /** What a new subscriber pays now (discount applied). */
  finalPriceCents: cents,
});

export const EARNINGS_PERIODS = ['month', '3months', '6months', 'year', 'all'] as const;
export const earningsQuerySchema = z.object({ period: z.enum(EARNINGS_PERIODS).default('all') });
const categoryAmount = z.object({ count: z.number().int(), amount: cents });
export const earningsResponseSchema = z.object({
  currency: z.literal('USD'),
  period: z.enum(EARNINGS_PERIODS),
  /** Creator's share in cents by earnings category (spec §1), net of reversals. */
  earnings: z.object({
    subscriptions: cents,
    tips: cents,
    unlockContent: cents,
    credits: cents,
    live: cents,
  }),
  /** The same earnings over time (day or month buckets in the platform time zone), oldest first. */
  series: z.object({
    unit: z.enum(['day', 'month']),
    points: z.array(
      z.object({
        date: z.string(),
        subscriptions: cents,
        tips: cents,
        unlockContent: cents,
        credits: cents,
        live: cents,
      }),
    ),
  }),
  /** Gross sales by sale category (spec §1); `dollars` is the total in cents. */
  sales: z.object({
    subscriptions: categoryAmount,
    content: categoryAmount,
    gifts: categoryAmount,
    flowers: categoryAmount,
    tips: categoryAmount,
    live: categoryAmount,
    dollars: categoryAmount,
  }),
  balance: z.object({ pending: cents, available: cents, total: cents }),
  payouts: z.array(
    z.object({
      _id: z.string(),
      amount: cents,
      status: z.enum(PAYOUT_STATUSES),
      date: z.string(),
      decidedAt: z.string().nullable(),
    }),
  ),
  nextPayoutDate: z.string(),
  payoutPeriod: z.enum(PAYOUT_PERIODS),
});
export type EarningsResponse = z.infer<typeof earningsResponseSchema>;

export const PAYOUT_METHOD_KINDS = ['card', 'bank', 'transfer'] as const;
export const payoutMethodRequestSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('card'),
    holder: z.string().trim().min(2).max(80),
    cardNumber: z
      .string()
      .trim()
      .regex(/^\d{12,19}$/, 'VALIDATION_FAILED'),
  }),
  z.object({
    kind: z.literal('bank'),
    holder: z.string().trim().min(2).max(80),
    bank: z.string().trim().min(2).max(80),
    accountNumber: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z-]{4,34}$/, 'VALIDATION_FAILED'),
    country: z.string().trim().min(2).max(2),
  }),
  z.object({
    kind: z.literal('transfer'),
    service: z.string().trim().min(2).max(60),
    recipient: z.string().trim().min(2).max(120),
    country: z.string().trim().min(2).max(2),
  }),
]);
export const payoutMethodResponseSchema = z.object({
  method: z.object({ kind: z.enum(PAYOUT_METHOD_KINDS), masked: z.string() }).nullable(),
});

export const adminPayoutsQuerySchema = pageQuerySchema(24).extend({
  status: z.enum(PAYOUT_STATUSES).optional(),
});
export const adminPayoutItemSchema = z.object({
  _id: z.string(),
  creator: z.string(),
  amount: cents,
  status: z.enum(PAYOUT_STATUSES),
  method: z.string().nullable(),
  date: z.string(),
  decidedAt: z.string().nullable(),
});
export const adminPayoutsResponseSchema = z.object({
  items: z.array(adminPayoutItemSchema),
  statistics: pageStatisticsSchema,
});
export const adminPayoutDecisionSchema = z.object({ status: z.enum(PAYOUT_DECISIONS) });
export const adminPayoutResponseSchema = z.object({ payout: adminPayoutItemSchema });

export const commissionRequestSchema = z.object({ percent: z.coerce.number().int().min(0).max(100) });
export const commissionResponseSchema = z.object({
  platformPercent: z.number().int(),
  creatorPercent: z.number().int(),
  referralPercent: z.number().int(),
  minCreatorPercent: z.number().int(),
});

export const SANDBOX_EVENTS = ['renewal', 'cancellation', 'expiry', 'refund', 'chargeback'] as const;
export const sandboxSimulateRequestSchema = z.object({
  /** The purchase (subscription or credit purchase) or transaction id the event is about. */
  purchase: z.string().trim().min(1).max(80),
  event: z.enum(SANDBOX_EVENTS),
  /** Event time (injectable clock for tests and demos); default now. */
  at: z.string().datetime({ offset: true }).optional(),
});
export const sandboxSimulateResponseSchema = z.object({
  success: z.literal(true),
  transactionId: z.string(),
  status: z.number().int(),
});

export const adminCreditBagRequestSchema = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{2,40}$/, 'VALIDATION_FAILED'),
  credits: z.coerce.number().int().min(1).max(100_000),
  priceCents: z.coerce.number().int().min(50).max(10_000_000),
  eticketid: z.string().trim().min(1).max(40),
  active: z.boolean().default(true),
  position: z.coerce.number().int().min(0).max(1000).default(0),
});

const creatorParam = creatorParamSchema;
const idParam = z.object({ id: z.string().uuid('NOT_FOUND') });

/** The money endpoints (issue 6), spread into the one endpoint map of api.ts. */
export const moneyEndpoints = {
  'credits.bags': {
    method: 'GET',
    path: '/credit-bags',
    output: creditBagsResponseSchema,
    auth: 'optional',
    summary: 'The credit bags on sale (250, 150, 50) with price and provider ticket.',
  },
  'checkout.credits': {
    method: 'POST',
    path: '/checkout/credits',
    input: checkoutCreditsRequestSchema,
    output: checkoutResponseSchema,
    auth: 'required',
    summary: 'Start buying a credit bag: answers the hosted billing page to redirect to.',
  },
  'checkout.subscription': {
    method: 'POST',
    path: '/checkout/subscription',
    input: checkoutSubscriptionRequestSchema,
    output: checkoutResponseSchema,
    auth: 'required',
    summary:
      "Start a subscription to a creator (by handle; monthly, a bundle, or an offer link's trial or discount): answers the billing page's URL.",
  },
  'creator.offers': {
    method: 'GET',
    path: '/creator/offers',
    output: creatorOffersResponseSchema,
    auth: 'required',
    summary:
      "The creator's own offers: bundles (with prices), offer links (uses left) and the welcome message.",
  },
  'creator.saveBundles': {
    method: 'POST',
    path: '/creator/offers/bundles',
    input: saveBundlesSchema,
    output: creatorOffersResponseSchema,
    auth: 'required',
    summary: 'Set the subscription bundles (3, 6, 12 months at a discount); an empty list removes them.',
  },
  'creator.createOfferLink': {
    method: 'POST',
    path: '/creator/offers/links',
    input: createOfferLinkSchema,
    output: offerLinkSchema,
    auth: 'required',
    summary: 'Create a free-trial or first-period discount link with an expiry and a use limit.',
  },
  'creator.saveWelcome': {
    method: 'POST',
    path: '/creator/offers/welcome',
    input: welcomeMessageSchema,
    output: creatorOffersResponseSchema,
    auth: 'required',
    summary: 'Set the message sent automatically to every new subscriber (on or off).',
  },
  'offers.bundles': {
    method: 'GET',
    path: '/offers/creator/:creator',
    params: creatorParam,
    output: z.object({ bundles: z.array(bundleOfferSchema) }),
    auth: 'optional',
    summary: "A creator's subscription bundles with their prices, for the subscribe dialog.",
  },
  'offers.view': {
    method: 'GET',
    path: '/offers/link/:code',
    params: z.object({ code: z.string().trim().min(4).max(40) }),
    output: offerViewSchema,
    auth: 'optional',
    summary:
      'What an offer link gives (trial or discount, prices, expiry, uses left); an expired or used-up link is refused.',
  },
  'wallet.get': {
    method: 'GET',
    path: '/wallet',
    output: walletResponseSchema,
    auth: 'required',
    summary: 'The own credit balance (grants the verified free credits once).',
  },
  'wallet.history': {
    method: 'GET',
    path: '/wallet/history',
    input: creditsHistoryQuerySchema,
    output: creditsHistoryResponseSchema,
    auth: 'required',
    summary: 'Credits history: purchases, free credits, unlocks, tips, flowers, gifts, reversals.',
  },
  'posts.unlock': {
    method: 'POST',
    path: '/posts/:id/unlock',
    params: idParam,
    output: spendResponseSchema,
    auth: 'required',
    summary: 'Unlock a pay-per-view post with credits (price after discount; charged once).',
  },
  'messages.unlock': {
    method: 'POST',
    path: '/message/:id/unlock',
    params: idParam,
    output: spendResponseSchema,
    auth: 'required',
    summary: "Unlock a paid message's media with credits (the receiver only; charged once).",
  },
  'tips.send': {
    method: 'POST',
    path: '/tips',
    input: tipRequestSchema,
    output: spendResponseSchema,
    auth: 'required',
    summary: 'Tip a creator in credits (on a post, the profile or a chat).',
  },
  'gifts.send': {
    method: 'POST',
    path: '/gifts',
    input: giftRequestSchema,
    output: spendResponseSchema,
    auth: 'required',
    summary: 'Send a creator flowers or a gift (fixed credit prices).',
  },
  'subscriptions.mine': {
    method: 'GET',
    path: '/user/subscriptions',
    output: subscriptionsResponseSchema,
    auth: 'required',
    summary: 'The own subscriptions: status, date, period, last activation, last renewal.',
  },
  'subscriptions.cancel': {
    method: 'POST',
    path: '/subscriptions/:creator/cancel',
    params: creatorParam,
    output: subscriptionActionResponseSchema,
    auth: 'required',
    summary: 'Cancel the own subscription to a creator; access lasts until the paid period ends.',
  },
  'subscriptions.renew': {
    method: 'POST',
    path: '/subscriptions/:creator/renew',
    params: creatorParam,
    output: subscriptionActionResponseSchema,
    auth: 'required',
    summary: 'Undo a cancellation within the paid period, or answer a checkout to pay a new period.',
  },
  'subscriptions.cancelLink': {
    method: 'GET',
    path: '/subscriptions/cancel-link',
    input: cancelLinkSchema,
    output: cancelLinkResponseSchema,
    auth: 'optional',
    summary:
      "What a renewal mail's cancel link cancels (creator, paid period, next charge); no sign-in needed.",
  },
  'subscriptions.cancelByLink': {
    method: 'POST',
    path: '/subscriptions/cancel-link',
    input: cancelLinkSchema,
    output: cancelLinkResponseSchema,
    auth: 'optional',
    summary:
      'Cancel in one click from the renewal mail (signed single-purpose token); access lasts to the period end.',
  },
  'creator.subscribers': {
    method: 'GET',
    path: '/creator/subscribers',
    input: subscribersQuerySchema,
    output: subscribersResponseSchema,
    auth: 'required',
    summary: "The creator's subscribers (10 a page): items, page, total, limit.",
  },
  'creator.pricing': {
    method: 'POST',
    path: '/creator/pricing',
    input: pricingRequestSchema,
    output: pricingResponseSchema,
    auth: 'required',
    summary: 'Set the monthly subscription price in dollars and its discount (creator role).',
  },
  'creator.earnings': {
    method: 'GET',
    path: '/creator/earnings',
    input: earningsQuerySchema,
    output: earningsResponseSchema,
    auth: 'required',
    summary: 'Earnings by category, sales by category, balance and payouts (creator role).',
  },
  'creator.payoutMethod': {
    method: 'GET',
    path: '/creator/payout-method',
    output: payoutMethodResponseSchema,
    auth: 'required',
    summary: 'The own payout method, masked (creator role).',
  },
  'creator.setPayoutMethod': {
    method: 'POST',
    path: '/creator/payout-method',
    input: payoutMethodRequestSchema,
    output: payoutMethodResponseSchema,
    auth: 'required',
    summary: 'Set the payout method: payment-partner card, local bank transfer or transfer service.',
  },
  'user.transactions': {
    method: 'GET',
    path: '/user/transactions',
    input: transactionsQuerySchema,
    output: transactionsResponseSchema,
    auth: 'required',
    summary: 'Own payments and spends: purchase ID, transaction ID, amount, type, date, date review.',
  },
  'admin.payouts': {
    method: 'GET',
    path: '/admin/payouts',
    input: adminPayoutsQuerySchema,
    output: adminPayoutsResponseSchema,
    auth: 'required',
    summary: 'Payout batches to pay (admin, super).',
  },
  'admin.payoutDecision': {
    method: 'POST',
    path: '/admin/payouts/:id',
    params: idParam,
    input: adminPayoutDecisionSchema,
    output: adminPayoutResponseSchema,
    auth: 'required',
    summary: 'Mark a payout paid or failed (failed returns the amount to available earnings).',
  },
  'admin.commission': {
    method: 'GET',
    path: '/admin/commission',
    output: commissionResponseSchema,
    auth: 'required',
    summary: 'The platform commission, creator share and referral percent (admin, super).',
  },
  'admin.setCommission': {
    method: 'POST',
    path: '/admin/commission',
    input: commissionRequestSchema,
    output: commissionResponseSchema,
    auth: 'required',
    summary: 'Set the platform commission percent; the creator keeps the rest (admin, super).',
  },
  'admin.saveCreditBag': {
    method: 'POST',
    path: '/admin/credit-bags',
    input: adminCreditBagRequestSchema,
    output: creditBagsResponseSchema,
    auth: 'required',
    summary: 'Create or edit a credit bag: credits, price and provider ticket (admin, super).',
  },
  'payments.sandboxSimulate': {
    method: 'POST',
    path: '/payments/sandbox/simulate',
    input: sandboxSimulateRequestSchema,
    output: sandboxSimulateResponseSchema,
    auth: 'required',
    summary: 'Sandbox controls: emit renewal, cancellation, expiry, refund or chargeback postbacks.',
  },
} as const;
