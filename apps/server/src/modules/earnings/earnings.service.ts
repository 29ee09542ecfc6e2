import type { ParsedInput, PayoutStatus } from '@fanverse/contract';
import { pageStatistics } from '@fanverse/contract';
import type { MoneyConfig } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { dollars } from '../../payments/payment-provider.ts';
import type { NotificationService } from '../notifications/notification.service.ts';
import { ACCOUNTS, addDays, nextPayoutDate, payoutBatchKey } from '../wallet/money.math.ts';
import type { MoneyStore } from '../wallet/money.unit.ts';
import type { MoneyTerms } from '../wallet/terms.service.ts';
import type { PayoutRow } from './earnings.repository.ts';
import { maskPayoutMethod, type PayoutMethodInput } from './payout-method.ts';

type Period = 'month' | '3months' | '6months' | 'year' | 'all';
const PERIOD_DAYS: Record<Period, number | null> = {
  month: 30,
  '3months': 91,
  '6months': 182,
  year: 365,
  all: null,
};

export interface EarningsDeps {
  store: MoneyStore;
  config: MoneyConfig;
  terms: Pick<MoneyTerms, 'payoutTerms'>;
  notifications: Pick<NotificationService, 'notify'>;
  /** The platform time zone (config TIMEZONE): the days of the earnings chart. */
  timezone?: string;
  now?: () => Date;
}

/** Creators' earnings, sales, payout methods and payouts; the payout batch job; admin decisions. */
export class EarningsService {
  private readonly now: () => Date;

  constructor(private readonly deps: EarningsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async earnings(auth: AuthInfo, period: Period) {
    const now = this.now();
    const days = PERIOD_DAYS[period];
    const since = days === null ? null : addDays(now, -days);
    const { earnings, ledger } = this.deps.store;
    const account = ACCOUNTS.creator(auth.userId);
    // Up to six months a point per day; a year or everything, a point per month.
    const unit: 'day' | 'month' = days !== null && days <= 182 ? 'day' : 'month';
    const [sales, total, available, payouts, terms, overTime] = await Promise.all([
      earnings.salesByCategory(auth.userId, since),
      ledger.balance(account, 'cents'),
      ledger.balance(account, 'cents', now),
      earnings.payoutsOf(auth.userId),
      this.deps.terms.payoutTerms(),
      earnings.earningsOverTime(auth.userId, since, unit, this.deps.timezone ?? 'UTC'),
    ]);
    // The period's totals are the sums of the chart's rows: one query answers both.
    const e = (cat: string) =>
      overTime.reduce((sum, row) => (row.category === cat ? sum + Number(row.total) : sum), 0);
    const s = (cat: string) => {
      const row = sales.find((c) => c.category === cat);
      return { count: row?.count ?? 0, amount: Number(row?.amount ?? 0) };
    };
    const all = sales.reduce(
      (acc, r) => ({ count: acc.count + r.count, amount: acc.amount + Number(r.amount) }),
      { count: 0, amount: 0 },
    );
    return {
      currency: 'USD' as const,
      period,
      earnings: {
        subscriptions: e('subscriptions'),
        tips: e('tips'),
        unlockContent: e('content'),
        credits: e('flowers') + e('gifts'),
        live: e('live'),
      },
      series: { unit, points: earningsPoints(overTime) },
      sales: {
        subscriptions: s('subscriptions'),
        content: s('content'),
        gifts: s('gifts'),
        flowers: s('flowers'),
        tips: s('tips'),
        live: s('live'),
        dollars: all,
      },
      balance: { pending: total - available, available, total },
      payouts: payouts.map(presentPayout),
      nextPayoutDate: nextPayoutDate(now, terms.payoutPeriod).toISOString(),
      payoutPeriod: terms.payoutPeriod,
    };
  }

  async method(auth: AuthInfo) {
    const row = await this.deps.store.earnings.method(auth.userId);
    return { method: row ? { kind: row.kind as PayoutMethodInput['kind'], masked: row.masked } : null };
  }

  async setMethod(auth: AuthInfo, input: PayoutMethodInput) {
    const { kind, ...details } = input;
    await this.deps.store.earnings.setMethod(auth.userId, kind, details, maskPayoutMethod(input));
    return this.method(auth);
  }

  /**
   * The payout job: one payout per creator and batch (weekly or every 15 days) of the earnings
   * whose holding period is over. Re-running within a batch creates nothing new.
   */
  async runPayouts(): Promise<number> {
    const now = this.now();
    const { payoutPeriod } = await this.deps.terms.payoutTerms();
    const batchKey = payoutBatchKey(now, payoutPeriod);
    const due = await this.deps.store.earnings.availableBalances(now, this.deps.config.payoutMinCents);
    let created = 0;
    for (const { creatorId } of due) {
      const made = await this.deps.store.transaction(async (r) => {
        const available = await r.ledger.balance(ACCOUNTS.creator(creatorId), 'cents', now);
        if (available < this.deps.config.payoutMinCents) return false;
        const method = await r.earnings.method(creatorId);
        const payout = await r.earnings.createPayout({
          creatorId,
          batchKey,
          amountCents: available,
          method: method?.masked ?? null,
          at: now,
        });
        if (!payout) return false;
        await r.ledger.post(
          { kind: 'payout', key: `payout:${payout.id}`, creatorId, amountCents: available, at: now },
          [
            { account: ACCOUNTS.creator(creatorId), currency: 'cents', amount: -available },
            { account: ACCOUNTS.payoutsPayable, currency: 'cents', amount: available },
          ],
        );
        return true;
      });
      if (made) created += 1;
    }
    return created;
  }

  async list(status: PayoutStatus | undefined, page: number, limit: number) {
    const { items, total } = await this.deps.store.earnings.list(status, page, limit);
    return {
      items: items.map((i) => ({ ...presentPayout(i.payout), creator: i.username, method: i.payout.method })),
      statistics: pageStatistics(page, limit, total),
    };
  }

  /** Admin marks a payout paid (money left) or failed (the amount returns to available earnings). */
  async decide(id: string, status: ParsedInput<'admin.payoutDecision'>['status']) {
    const now = this.now();
    const payout = await this.deps.store.transaction(async (r) => {
      const row = await r.earnings.lockPayout(id);
      if (!row) throw new AppError('NOT_FOUND');
      if (row.status !== 'scheduled') throw new AppError('PAYOUT_ALREADY_DECIDED');
      const to =
        status === 'paid'
          ? { account: ACCOUNTS.paidOut, currency: 'cents' as const, amount: row.amountCents }
          : {
              account: ACCOUNTS.creator(row.creatorId),
              currency: 'cents' as const,
              amount: row.amountCents,
              availableAt: now,
            };
      await r.ledger.post(
        {
          kind: `payout_${status}`,
          key: `payout-${status}:${row.id}`,
          creatorId: row.creatorId,
          amountCents: row.amountCents,
          at: now,
        },
        [{ account: ACCOUNTS.payoutsPayable, currency: 'cents', amount: -row.amountCents }, to],
      );
      await r.earnings.decidePayout(row.id, status, now);
      return { ...row, status, decidedAt: now };
    });
    if (status === 'paid')
      await this.deps.notifications
        .notify(payout.creatorId, 'payout_sent', {
          amount: `$${dollars(payout.amountCents)}`,
          link: '/?feed=creator-statistics',
        })
        .catch(() => undefined);
    const creator = await this.deps.store.earnings.username(payout.creatorId);
    return { payout: { ...presentPayout(payout), creator, method: payout.method } };
  }
}

function presentPayout(p: PayoutRow) {
  return {
    _id: p.id,
    amount: p.amountCents,
    status: p.status,
    date: p.createdAt.toISOString(),
    decidedAt: p.decidedAt?.toISOString() ?? null,
  };
}

/** Ledger rows (bucket, category, cents) as chart points with the four earnings categories. */
function earningsPoints(rows: { bucket: string; category: string | null; total: string }[]) {
  const points = new Map<
    string,
    {
      date: string;
      subscriptions: number;
      tips: number;
      unlockContent: number;
      credits: number;
      live: number;
    }
  >();
  for (const row of rows) {
    const point = points.get(row.bucket) ?? {
      date: row.bucket,
      subscriptions: 0,
      tips: 0,
      unlockContent: 0,
      credits: 0,
      live: 0,
    };
    const cents = Number(row.total);
    if (row.category === 'subscriptions') point.subscriptions += cents;
    else if (row.category === 'tips') point.tips += cents;
    else if (row.category === 'content') point.unlockContent += cents;
    else if (row.category === 'flowers' || row.category === 'gifts') point.credits += cents;
    else if (row.category === 'live') point.live += cents;
    points.set(row.bucket, point);
  }
  return [...points.values()];
}
