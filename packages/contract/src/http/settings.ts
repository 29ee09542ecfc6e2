import { z } from 'zod';

/** How often creators are paid (spec S1.33: a setting, weekly by default). */
export const PAYOUT_PERIODS = ['weekly', '15days'] as const;
export type PayoutPeriod = (typeof PAYOUT_PERIODS)[number];

/** Longest holding time a super may set, in days (earnings wait this long before a payout). */
export const MAX_HOLD_DAYS = 90;

/** Highest credit price of flowers or a gift. */
export const MAX_GIFT_CREDITS = 10_000;

/**
 * Feature switches a super turns on and off at run time. Each one is enforced by the server
 * (the call answers a "paused" error) and hides its entry in the app while off.
 */
export const FEATURE_SWITCHES = [
  'signups',
  'creatorApplications',
  'tips',
  'giftsAndFlowers',
  'paidMessages',
] as const;
export type FeatureSwitch = (typeof FEATURE_SWITCHES)[number];

export const featureSwitchesSchema = z.object({
  signups: z.boolean(),
  creatorApplications: z.boolean(),
  tips: z.boolean(),
  giftsAndFlowers: z.boolean(),
  paidMessages: z.boolean(),
}) satisfies z.ZodType<Record<FeatureSwitch, boolean>>;
export type FeatureSwitches = z.infer<typeof featureSwitchesSchema>;

export const platformSettingsResponseSchema = z.object({
  payoutPeriod: z.enum(PAYOUT_PERIODS),
  holdDays: z.number().int(),
  features: featureSwitchesSchema,
  /** Credit prices of the gift products (flowers, a gift). */
  giftCosts: z.object({ flowers: z.number().int(), gift: z.number().int() }),
  /**
   * Two-step sign-in required for all staff: coordinators too act with their staff role only once
   * it is on (administrators always need it; ADR 0027). Off by default.
   */
  allStaffTwoFactor: z.boolean(),
  /** Server configuration (environment), shown read-only: changing it needs a deploy. */
  server: z.object({
    paymentProvider: z.string(),
    devOutbox: z.boolean(),
    sandboxControls: z.boolean(),
  }),
});
export type PlatformSettingsResponse = z.infer<typeof platformSettingsResponseSchema>;

const giftCredits = z.coerce
  .number({ error: 'giftCredits.range' })
  .int({ error: 'giftCredits.range' })
  .min(1, { error: 'giftCredits.range' })
  .max(MAX_GIFT_CREDITS, { error: 'giftCredits.range' });

export const platformSettingsRequestSchema = z.object({
  payoutPeriod: z.enum(PAYOUT_PERIODS, { error: 'invalid' }).optional(),
  holdDays: z.coerce
    .number({ error: 'holdDays.range' })
    .int({ error: 'holdDays.range' })
    .min(0, { error: 'holdDays.range' })
    .max(MAX_HOLD_DAYS, { error: 'holdDays.range' })
    .optional(),
  features: featureSwitchesSchema.partial().optional(),
  giftCosts: z.object({ flowers: giftCredits, gift: giftCredits }).partial().optional(),
  allStaffTwoFactor: z.boolean({ error: 'invalid' }).optional(),
});
export type PlatformSettingsRequest = z.infer<typeof platformSettingsRequestSchema>;

/** The forensic video mark's backfill (ADR 0041), as the super dashboard shows it. */
export const videoMarkStatusSchema = z.object({
  /** Private videos from before the mark (or whose free preview was) not yet re-encoded with it. */
  remaining: z.number().int(),
});
export type VideoMarkStatus = z.infer<typeof videoMarkStatusSchema>;

export const settingsEndpoints = {
  'admin.settings': {
    method: 'GET',
    path: '/admin/settings',
    output: platformSettingsResponseSchema,
    auth: 'required',
    summary:
      'Payout period, holding time, feature switches, gift prices and two-step sign-in for all staff, with the read-only server settings (super).',
  },
  'admin.videoMark': {
    method: 'GET',
    path: '/admin/video-mark',
    output: videoMarkStatusSchema,
    auth: 'required',
    summary:
      'How many private videos from before the forensic mark still wait to be re-encoded with it in the background (super).',
  },
  'admin.updateSettings': {
    method: 'PATCH',
    path: '/admin/settings',
    input: platformSettingsRequestSchema,
    output: platformSettingsResponseSchema,
    auth: 'required',
    summary:
      'Change the payout period, holding time, feature switches, gift prices or two-step sign-in for all staff; logged (super only).',
  },
} as const;
