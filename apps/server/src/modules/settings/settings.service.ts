import type {
  FeatureSwitch,
  FeatureSwitches,
  PlatformSettingsRequest,
  PlatformSettingsResponse,
} from '@fanverse/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { ActionLog } from '../admin/action-log.ts';
import {
  type FeatureGate,
  PAUSED_ERROR,
  type PayoutTerms,
  readFeatureSwitches,
  readPayoutTerms,
  writeFeatureSwitches,
  writePayoutTerms,
} from './platform-settings.ts';
import type { SettingsRepository } from './settings.repository.ts';

export interface SettingsDeps {
  repo: Pick<SettingsRepository, 'all' | 'set'>;
  /** Payout period and holding time until a super changes them (the configuration). */
  defaults: PayoutTerms;
  log: Pick<ActionLog, 'record'>;
  /** Server configuration shown read-only on the dashboard. */
  server: PlatformSettingsResponse['server'];
}

/**
 * The super dashboard's settings: payout period, holding time and feature switches. Every read
 * goes to the database, so each server of a cluster sees a change at once.
 */
export class SettingsService implements FeatureGate {
  constructor(private readonly deps: SettingsDeps) {}

  async current(): Promise<PlatformSettingsResponse> {
    const values = await this.deps.repo.all();
    return {
      ...readPayoutTerms(values, this.deps.defaults),
      features: readFeatureSwitches(values),
      server: this.deps.server,
    };
  }

  async update(auth: AuthInfo, input: PlatformSettingsRequest): Promise<PlatformSettingsResponse> {
    const before = await this.current();
    const values = {
      ...writePayoutTerms({ payoutPeriod: input.payoutPeriod, holdDays: input.holdDays }),
      ...writeFeatureSwitches(input.features ?? {}),
    };
    await this.deps.repo.set(values);
    const after = await this.current();
    const changes = diff(before, after);
    if (Object.keys(changes).length > 0)
      await this.deps.log.record(auth, 'settings.update', 'settings', 'platform', changes);
    return after;
  }

  async switches(): Promise<FeatureSwitches> {
    return readFeatureSwitches(await this.deps.repo.all());
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
  });
  const a = flat(before);
  const b = flat(after);
  return Object.fromEntries(
    Object.keys(b)
      .filter((k) => a[k] !== b[k])
      .map((k) => [k, { from: a[k], to: b[k] }]),
  );
}
