import type {
  FeatureSwitch,
  FeatureSwitches,
  PlatformSettingsRequest,
  PlatformSettingsResponse,
} from '@fanverse/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { CachedValue } from '../../lib/cached-value.ts';
import type { ActionLog } from '../admin/action-log.ts';
import type { MoneyTerms } from '../wallet/terms.service.ts';
import {
  type FeatureGate,
  PAUSED_ERROR,
  type PayoutTerms,
  readAllStaffTwoFactor,
  readFeatureSwitches,
  readGiftCosts,
  readPayoutTerms,
  type StaffTwoFactorRule,
  writeAllStaffTwoFactor,
  writeFeatureSwitches,
  writeGiftCosts,
  writePayoutTerms,
} from './platform-settings.ts';
import type { SettingsRepository } from './settings.repository.ts';

export interface SettingsDeps {
  repo: Pick<SettingsRepository, 'all' | 'set'>;
  /** Payout terms and gift prices until a super changes them (the configuration). */
  defaults: PayoutTerms & { flowersCredits: number; giftCredits: number };
  log: Pick<ActionLog, 'record'>;
  /** The commission lives with the money terms; changing it is logged here like the rest. */
  terms: Pick<MoneyTerms, 'platformPercent' | 'setPlatformPercent' | 'describe'>;
  /** Server configuration shown read-only on the dashboard. */
  server: PlatformSettingsResponse['server'];
  /** How long this process reuses what it read (default 5 s); money code never uses this copy. */
  cacheMs?: number;
}

/** The start-up call and every gated call read the switches; one read per few seconds is plenty. */
const DEFAULT_CACHE_MS = 5_000;

/**
 * The super dashboard's settings: payout period, holding time and feature switches. This process
 * sees its own changes at once; other servers of a cluster within `cacheMs` (ADR 0012). Money
 * amounts and dates never come from this cached copy: `MoneyTerms` reads them in the transaction.
 */
export class SettingsService implements FeatureGate, StaffTwoFactorRule {
  private readonly cached: CachedValue<Map<string, number>>;

  constructor(private readonly deps: SettingsDeps) {
    this.cached = new CachedValue(deps.cacheMs ?? DEFAULT_CACHE_MS, () => deps.repo.all());
  }

  private values(): Promise<Map<string, number>> {
    return this.cached.get();
  }

  /** The settings as the API shows them, derived once per loaded set of values. */
  private shown: { from: Map<string, number>; value: PlatformSettingsResponse } | undefined;

  async current(): Promise<PlatformSettingsResponse> {
    return this.shownOf(await this.values());
  }

  /** The settings as the API shows them when they are loaded and fresh, without waiting; else undefined. */
  currentNow(): PlatformSettingsResponse | undefined {
    const loaded = this.cached.peek();
    return loaded && this.shownOf(loaded.value);
  }

  private shownOf(values: Map<string, number>): PlatformSettingsResponse {
    if (this.shown?.from === values) return this.shown.value;
    const value = {
      ...readPayoutTerms(values, this.deps.defaults),
      features: readFeatureSwitches(values),
      giftCosts: readGiftCosts(values, this.deps.defaults),
      allStaffTwoFactor: readAllStaffTwoFactor(values),
      server: this.deps.server,
    };
    this.shown = { from: values, value };
    return value;
  }

  async update(auth: AuthInfo, input: PlatformSettingsRequest): Promise<PlatformSettingsResponse> {
    this.cached.clear(); // the change log compares against what the database holds now
    const before = await this.current();
    const values = {
      ...writePayoutTerms({ payoutPeriod: input.payoutPeriod, holdDays: input.holdDays }),
      ...writeFeatureSwitches(input.features ?? {}),
      ...writeGiftCosts(input.giftCosts ?? {}),
      ...writeAllStaffTwoFactor(input.allStaffTwoFactor),
    };
    await this.deps.repo.set(values);
    this.cached.clear();
    const after = await this.current();
    const changes = diff(before, after);
    if (Object.keys(changes).length > 0)
      await this.deps.log.record(auth, 'settings.update', 'settings', 'platform', changes);
    return after;
  }

  /** Sets the platform commission (admin or super), logging the change; answers the new terms. */
  async setCommission(auth: AuthInfo, percent: number) {
    const before = await this.deps.terms.platformPercent();
    await this.deps.terms.setPlatformPercent(percent);
    if (before !== percent) {
      const change = { platformPercent: { from: before, to: percent } };
      await this.deps.log.record(auth, 'commission.update', 'settings', 'commission', change);
    }
    return this.deps.terms.describe();
  }

  async switches(): Promise<FeatureSwitches> {
    return readFeatureSwitches(await this.values());
  }

  /**
   * Whether coordinators too need two-step sign-in (read per request by `AuthService`): the cached
   * copy, so the copy that saved a change applies it at once and other copies within `cacheMs`.
   */
  async allStaffTwoFactor(): Promise<boolean> {
    return readAllStaffTwoFactor(await this.values());
  }

  async require(feature: FeatureSwitch): Promise<void> {
    const switches = await this.switches();
    if (!switches[feature]) throw new AppError(PAUSED_ERROR[feature]);
  }
}

/** What changed, as `{ field: { from, to } }` with switches named `features.<name>`. */
function diff(before: PlatformSettingsResponse, after: PlatformSettingsResponse) {
  const flat = (s: PlatformSettingsResponse): Record<string, unknown> => ({
    payoutPeriod: s.payoutPeriod,
    holdDays: s.holdDays,
    ...Object.fromEntries(Object.entries(s.features).map(([k, v]) => [`features.${k}`, v])),
    'giftCosts.flowers': s.giftCosts.flowers,
    'giftCosts.gift': s.giftCosts.gift,
    allStaffTwoFactor: s.allStaffTwoFactor,
  });
  const a = flat(before);
  const b = flat(after);
  return Object.fromEntries(
    Object.keys(b)
      .filter((k) => a[k] !== b[k])
      .map((k) => [k, { from: a[k], to: b[k] }]),
  );
}
