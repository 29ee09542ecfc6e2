import type { Db } from '../../db/client.ts';
import { BillingRepository } from '../billing/billing.repository.ts';
import { EarningsRepository } from '../earnings/earnings.repository.ts';
import { SettingsRepository } from '../settings/settings.repository.ts';
import { OfferRepository } from '../subscriptions/offer.repository.ts';
import { SubscriptionRepository } from '../subscriptions/subscription.repository.ts';
import { EntitlementRepository } from './entitlement.repository.ts';
import { LedgerRepository } from './ledger.repository.ts';

/** The repositories a money operation touches, bound to one database transaction or to the pool. */
export interface MoneyRepos {
  ledger: LedgerRepository;
  billing: BillingRepository;
  subscriptions: SubscriptionRepository;
  offers: OfferRepository;
  entitlements: EntitlementRepository;
  earnings: EarningsRepository;
  settings: SettingsRepository;
}

export interface MoneyStore extends MoneyRepos {
  /** Runs `fn` in one transaction: every ledger leg, balance and entitlement change commits together. */
  transaction<T>(fn: (repos: MoneyRepos) => Promise<T>): Promise<T>;
}

function repos(db: Db): MoneyRepos {
  return {
    ledger: new LedgerRepository(db),
    billing: new BillingRepository(db),
    subscriptions: new SubscriptionRepository(db),
    offers: new OfferRepository(db),
    entitlements: new EntitlementRepository(db),
    earnings: new EarningsRepository(db),
    settings: new SettingsRepository(db),
  };
}

export function createMoneyStore(db: Db): MoneyStore {
  return {
    ...repos(db),
    transaction: (fn) => db.transaction((tx) => fn(repos(tx as unknown as Db))),
  };
}
