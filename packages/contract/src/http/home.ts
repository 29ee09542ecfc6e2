import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { featureSwitchesSchema, PAYOUT_PERIODS } from './settings.ts';

export const homeQuerySchema = z.object({ view: z.literal('home').default('home') });

/** A creator shown to visitors on the landing view. */
export const landingCreatorSchema = z.object({
  user: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
});

/** Start-up data (spec §4): locale data, app name and key name, CDN domain, adminUser, landing. */
export const homeResponseSchema = z.object({
  language: z.enum(LANGUAGES),
  languages: z.array(z.enum(LANGUAGES)),
  name: z.string(),
  appKey: z.string(),
  cdn: z.string().nullable(),
  adminUser: z.string(),
  timezone: z.string(),
  words: z.record(z.string(), z.string()),
  texts: z.record(z.string(), z.string()),
  landing: z.object({
    title: z.string(),
    subtitle: z.string(),
    creators: z.array(landingCreatorSchema),
  }),
  features: z.object({
    devOutbox: z.boolean(),
    paymentProvider: z.string(),
    sandboxControls: z.boolean(),
    payoutPeriod: z.enum(PAYOUT_PERIODS),
    earningsHoldDays: z.number().int(),
    /** Run-time feature switches (the super dashboard); an entry whose switch is off is hidden. */
    switches: featureSwitchesSchema,
    /** Credits that flowers and a gift cost. */
    giftCosts: z.object({ flowers: z.number().int(), gift: z.number().int() }),
    /** Largest upload accepted, in MB (the error message names the limit that applied). */
    uploadLimits: z.object({ imageMb: z.number().int(), videoMb: z.number().int() }),
  }),
  serverTime: z.string(),
  /**
   * The analytics tag (spec §7): its script and site id, loaded by the app only after the visitor
   * agrees in the cookie banner; null when the platform runs without one (the default).
   */
  analytics: z.object({ scriptUrl: z.string(), siteId: z.string() }).nullable(),
});
export type HomeResponse = z.infer<typeof homeResponseSchema>;
