import type {
  AdminStatistics,
  AdminStatisticsPage,
  CreatorStatistics,
  ParsedInput,
  StatisticsPeriod,
} from '@fanverse/contract';
import { SALE_CATEGORIES, STATISTICS_PERIOD_MONTHS } from '@fanverse/contract';
import { isCreator, isStaff } from '../../access/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { Period, StatisticsRepository } from './statistics.repository.ts';

/**
 * A statistics period of spec §9 (last month, 3, 6 months, year, all time). The repository counts it
 * in whole days of the configured time zone, the zone it also groups days in.
 */
export const periodOf = (period: StatisticsPeriod, now: Date): Period => ({
  months: STATISTICS_PERIOD_MONTHS[period],
  now,
});

type Query = ParsedInput<'creator.statistics'>;

const num = (v: unknown) => Number(v ?? 0);
/** A share in percent with one decimal; 0 when there is nothing to share. */
const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * Honest billing for the super's dashboard: the renewal rate (renewals over the paid periods that
 * came to an end: renewed or lapsed) and the cancel rate (cancellations over the subscriptions whose
 * paid period overlapped the statistics period).
 */
export function billingRates(c: Record<string, unknown>) {
  const renewals = num(c.renewals);
  const cancellations = num(c.cancellations);
  return {
    renewals,
    cancellations,
    renewalRate: percent(renewals, renewals + num(c.lapsed)),
    cancelRate: percent(cancellations, num(c.subscribed)),
  };
}

/** Admin and creator statistics, computed from the ledger and activity tables on each request. */
export class StatisticsService {
  constructor(
    private readonly repo: StatisticsRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async admin(auth: AuthInfo, page: AdminStatisticsPage, q: Query): Promise<AdminStatistics> {
    if (!isStaff(auth)) throw new AppError('FORBIDDEN');
    const since = periodOf(q.period, this.now());
    const paged = (total: number, extra: Record<string, number> = {}) => ({
      page: q.page,
      limit: q.limit,
      total,
      hasMore: total > q.page * q.limit,
      totals: extra,
    });
    /** Totals of the period from its days: the sales are read once. */
    const categoryTotals = (days: Record<string, unknown>[]) => {
      const totals = Object.fromEntries(
        SALE_CATEGORIES.map((c) => [c, days.reduce((sum, d) => sum + num(d[c]), 0)]),
      );
      return {
        ...totals,
        cash: totals.subscriptions! + totals.dollars!,
        creditSpends: totals.content! + totals.gifts! + totals.flowers! + totals.tips! + totals.live!,
      };
    };
    switch (page) {
      case 'home': {
        const [sales, revenue, signups, users, billing] = await Promise.all([
          this.repo.salesByDay(since, q.sort),
          this.repo.revenueByDay(since),
          this.repo.signupsByDay(since, q.sort),
          this.repo.userTotals(),
          this.repo.billingCounts(since),
        ]);
        const totals = categoryTotals(sales);
        const revenueTotal = revenue.reduce((sum, r) => sum + num(r.revenue), 0);
        const days = new Map<string, { date: string; sales: number; revenue: number; signups: number }>();
        const at = (date: string) => {
          const found = days.get(date);
          if (found) return found;
          const fresh = { date, sales: 0, revenue: 0, signups: 0 };
          days.set(date, fresh);
          return fresh;
        };
        for (const s of sales) at(String(s.date)).sales = num(s.subscriptions) + num(s.dollars);
        for (const r of revenue) at(String(r.date)).revenue = num(r.revenue);
        for (const u of signups) at(String(u.date)).signups = num(u.users);
        const items = [...days.values()].sort(
          (a, b) => (q.sort === 'asc' ? 1 : -1) * a.date.localeCompare(b.date),
        );
        return {
          page,
          period: q.period,
          columns: ['date', 'sales', 'revenue', 'signups'],
          items,
          statistics: paged(items.length, {
            ...totals,
            revenue: revenueTotal,
            users: num(users.users),
            creators: num(users.creators),
            fans: num(users.fans),
            activeSubscriptions: num(users.activeSubscriptions),
            ...billingRates(billing),
          }),
        };
      }
      case 'sales': {
        const items = await this.repo.salesByDay(since, q.sort);
        const totals = categoryTotals(items);
        return {
          page,
          period: q.period,
          columns: ['date', ...SALE_CATEGORIES],
          items,
          statistics: paged(items.length, totals),
        };
      }
      case 'users': {
        const items = await this.repo.signupsByDay(since, q.sort);
        const totals = { users: 0, creators: 0, fans: 0 };
        for (const i of items) {
          totals.users += num(i.users);
          totals.creators += num(i.creators);
          totals.fans += num(i.fans);
        }
        return {
          page,
          period: q.period,
          columns: ['date', 'users', 'creators', 'fans'],
          items,
          statistics: paged(items.length, totals),
        };
      }
      case 'bags': {
        const items = await this.repo.bags(since, q.sort);
        const totals = {
          sold: items.reduce((a, i) => a + num(i.sold), 0),
          amount: items.reduce((a, i) => a + num(i.amount), 0),
        };
        return {
          page,
          period: q.period,
          columns: ['bag', 'credits', 'price', 'sold', 'amount'],
          items,
          statistics: paged(items.length, totals),
        };
      }
      case 'creators': {
        const { items, total } = await this.repo.creators(since, q.sort, q.page, q.limit);
        return {
          page,
          period: q.period,
          columns: ['creator', 'sales', 'earnings', 'subscribers', 'posts'],
          items: items.map(({ creatorId: _id, ...rest }) => rest),
          statistics: { ...paged(total), totalCreators: total },
        };
      }
      case 'fans': {
        const { items, total } = await this.repo.fans(since, q.sort, q.page, q.limit);
        return {
          page,
          period: q.period,
          columns: ['fan', 'spent', 'paid', 'subscriptions'],
          items,
          statistics: paged(total),
        };
      }
      case 'salesByCreator': {
        const { items, total } = await this.repo.salesByCreator(since, q.sort, q.page, q.limit);
        return {
          page,
          period: q.period,
          columns: ['creator', ...SALE_CATEGORIES.filter((c) => c !== 'dollars'), 'total'],
          items: items.map(({ dollars: _d, ...rest }) => rest),
          statistics: { ...paged(total), totalCreators: total },
        };
      }
    }
  }

  async creator(auth: AuthInfo, q: Query): Promise<CreatorStatistics> {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
    const since = periodOf(q.period, this.now());
    const [subscribers, days, top] = await Promise.all([
      this.repo.creatorSubscribers(auth.userId, since),
      this.repo.salesByDay(since, 'asc', auth.userId),
      this.repo.topPosts(auth.userId, since, 5),
    ]);
    return {
      period: q.period,
      subscribers,
      series: days.map((d) => ({
        date: String(d.date),
        amount: SALE_CATEGORIES.reduce((a, c) => a + num(d[c]), 0),
      })),
      topPosts: top.map((p) => ({
        _id: String(p._id),
        message: String(p.message ?? ''),
        likes: num(p.likes),
        comments: num(p.comments),
        unlocks: num(p.unlocks),
        earnings: num(p.earnings),
      })),
    };
  }
}
