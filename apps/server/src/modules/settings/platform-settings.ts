import {
  type ErrorCode,
  FEATURE_SWITCHES,
  type FeatureSwitch,
  type FeatureSwitches,
  type PayoutPeriod,
} from '@fanverse/contract';

/**
 * Keys of the run-time settings table. A key never written falls back to the configuration
 * (environment) default, so a fresh install behaves as its environment says.
 */
export const SETTING_KEYS = {
  platformPercent: 'platform_percent',
  payoutPeriodDays: 'payout_period_days',
  holdDays: 'hold_days',
  flowersCredits: 'flowers_credits',
  giftCredits: 'gift_credits',
  feature: (name: FeatureSwitch) => `feature.${name}`,
  allStaffTwoFactor: 'all_staff_two_factor',
} as const;

const PERIOD_DAYS: Record<PayoutPeriod, number> = { weekly: 7, '15days': 15 };

export interface PayoutTerms {
  payoutPeriod: PayoutPeriod;
  holdDays: number;
}

export function readPayoutTerms(values: Map<string, number>, defaults: PayoutTerms): PayoutTerms {
  const days = values.get(SETTING_KEYS.payoutPeriodDays);
  const period = (Object.keys(PERIOD_DAYS) as PayoutPeriod[]).find((p) => PERIOD_DAYS[p] === days);
  return {
    payoutPeriod: period ?? defaults.payoutPeriod,
    holdDays: values.get(SETTING_KEYS.holdDays) ?? defaults.holdDays,
  };
}

export function writePayoutTerms(terms: Partial<PayoutTerms>): Record<string, number> {
  const values: Record<string, number> = {};
  if (terms.payoutPeriod) values[SETTING_KEYS.payoutPeriodDays] = PERIOD_DAYS[terms.payoutPeriod];
  if (terms.holdDays !== undefined) values[SETTING_KEYS.holdDays] = terms.holdDays;
  return values;
}

export interface GiftCosts {
  flowers: number;
  gift: number;
}

export function readGiftCosts(
  values: Map<string, number>,
  defaults: { flowersCredits: number; giftCredits: number },
): GiftCosts {
  return {
    flowers: values.get(SETTING_KEYS.flowersCredits) ?? defaults.flowersCredits,
    gift: values.get(SETTING_KEYS.giftCredits) ?? defaults.giftCredits,
  };
}

export function writeGiftCosts(costs: Partial<GiftCosts>): Record<string, number> {
  const values: Record<string, number> = {};
  if (costs.flowers !== undefined) values[SETTING_KEYS.flowersCredits] = costs.flowers;
  if (costs.gift !== undefined) values[SETTING_KEYS.giftCredits] = costs.gift;
  return values;
}

/** Every switch is on until a super turns it off. */
export function readFeatureSwitches(values: Map<string, number>): FeatureSwitches {
  const entries = FEATURE_SWITCHES.map((name) => [name, values.get(SETTING_KEYS.feature(name)) !== 0]);
  return Object.fromEntries(entries) as FeatureSwitches;
}

export function writeFeatureSwitches(switches: Partial<FeatureSwitches>): Record<string, number> {
  const values: Record<string, number> = {};
  for (const name of FEATURE_SWITCHES) {
    const on = switches[name];
    if (on !== undefined) values[SETTING_KEYS.feature(name)] = on ? 1 : 0;
  }
  return values;
}

/** Off until a super turns it on: only administrators need two-step sign-in by default (ADR 0027). */
export const readAllStaffTwoFactor = (values: Map<string, number>): boolean =>
  values.get(SETTING_KEYS.allStaffTwoFactor) === 1;

/** What sign-in needs to know of the setting (`access/roles.ts` `rolesInForce`). */
export interface StaffTwoFactorRule {
  /** Whether coordinators too act with their staff role only once two-step sign-in is on. */
  allStaffTwoFactor(): Promise<boolean>;
}

export function writeAllStaffTwoFactor(on: boolean | undefined): Record<string, number> {
  return on === undefined ? {} : { [SETTING_KEYS.allStaffTwoFactor]: on ? 1 : 0 };
}

/** The error a call answers while its feature is switched off. */
export const PAUSED_ERROR: Record<FeatureSwitch, ErrorCode> = {
  signups: 'SIGNUPS_PAUSED',
  creatorApplications: 'APPLICATIONS_PAUSED',
  tips: 'TIPS_PAUSED',
  giftsAndFlowers: 'GIFTS_PAUSED',
  paidMessages: 'PAID_MESSAGES_PAUSED',
};

/** What a service needs to refuse a call whose feature is switched off. */
export interface FeatureGate {
  /** Throws the feature's "paused" error while it is switched off. */
  require(feature: FeatureSwitch): Promise<void>;
}
