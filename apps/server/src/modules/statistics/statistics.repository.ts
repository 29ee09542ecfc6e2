import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import {
  activeSubscriptionSql,
  creatorSql,
  fanAccountSql,
  livePostSql,
  publishedPostSql,
} from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import {
  creditBags,
  ledgerEntries,
  ledgerTransactions as lt,
  postLikes,
  posts,
  subscriptionBilling,
  subscriptions,
  unlocks,
  users,
} from '../../db/schema.ts';
import { rowsOf } from '../wallet/ledger.repository.ts';

type Row = Record<string, string | number | null>;

/**
 * A statistics period: the last `months` months counted in whole days of the configured time zone
 * (from the start of that local day), or all time when `months` is null.
 */
export interface Period {
  months: number | null;
  now: Date;
}

/**
 * The sale category of a ledger transfer as the statistics name it. The ledger stores the category
 * on every sale and copies it onto the refund or chargeback that reverses it (with a negative
 * amount), so sums over it are net; credit-bag sales are shown as "dollars".
 */
const CATEGORY = sql`CASE ${lt.category} WHEN 'credits' THEN 'dollars' ELSE ${lt.category} END`;

const CATEGORY_SUMS = sql`
  coalesce(sum(amount_cents) FILTER (WHERE category = 'subscriptions'), 0)::int AS subscriptions,
  coalesce(sum(amount_cents) FILTER (WHERE category = 'content'), 0)::int AS content,
  coalesce(sum(amount_cents) FILTER (WHERE category = 'gifts'), 0)::int AS gifts,
  coalesce(sum(amount_cents) FILTER (WHERE category = 'flowers'), 0)::int AS flowers,
  coalesce(sum(amount_cents) FILTER (WHERE category = 'tips'), 0)::int AS tips,
  coalesce(sum(amount_cents) FILTER (WHERE category = 'live'), 0)::int AS live,
  coalesce(sum(amount_cents) FILTER (WHERE category = 'dollars'), 0)::int AS dollars`;

const direction = (order: 'asc' | 'desc') => (order === 'asc' ? sql`ASC` : sql`DESC`);

/**
 * Statistics are queries over the ledger and the activity tables, never counters kept on the side.
 * Each query reads each table once: per-creator and per-fan figures come from grouped subqueries
 * joined to the people, and the page total from a window count, never a subquery run per row.
 */
export class StatisticsRepository {
  private readonly creatorCount = sql`SELECT count(*)::int AS n FROM ${users}
    WHERE ${creatorSql(users.roles)} AND ${users.deletedAt} IS NULL`;

  constructor(
    private readonly db: Db,
    private readonly timezone: string,
  ) {}

  private async rows(query: SQL): Promise<Row[]> {
    return rowsOf<Row>(await this.db.execute(query)).map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : (v as Row[string])]),
      ),
    );
  }

  /** The calendar day of a moment in the configured time zone. */
  private day(column: SQLWrapper) {
    return sql`to_char(${column} AT TIME ZONE ${this.timezone}, 'YYYY-MM-DD')`;
  }

  /** `AND column >= the period's first moment` (local midnight `months` months ago), or nothing. */
  private since(column: SQLWrapper, period: Period): SQL {
    if (period.months === null) return sql``;
    const now = sql`${period.now.toISOString()}::timestamptz`;
    return sql`AND ${column} >= ((date_trunc('day', ${now} AT TIME ZONE ${this.timezone})
      - make_interval(months => ${period.months}::int)) AT TIME ZONE ${this.timezone})`;
  }

  /** Every sale and reversal of the period, one row each, with its statistics category. */
  private sales(period: Period, creatorId?: string): SQL {
    return sql`SELECT ${lt.createdAt} AS created_at, ${lt.creatorId} AS creator_id, ${lt.userId} AS user_id,
        ${lt.amountCents} AS amount_cents, ${lt.credits} AS credits, ${lt.kind} AS kind, ${CATEGORY} AS category
      FROM ${lt} WHERE ${lt.category} IS NOT NULL ${this.since(lt.createdAt, period)}
      ${creatorId ? sql`AND ${lt.creatorId} = ${creatorId}` : sql``}`;
  }

  salesByDay(period: Period, order: 'asc' | 'desc', creatorId?: string) {
    return this.rows(sql`SELECT ${this.day(sql`created_at`)} AS date, ${CATEGORY_SUMS}
      FROM (${this.sales(period, creatorId)}) s GROUP BY 1 ORDER BY 1 ${direction(order)}`);
  }

  /** The platform's commission by day (cents), from its revenue account. */
  revenueByDay(period: Period) {
    return this.rows(sql`SELECT ${this.day(lt.createdAt)} AS date, coalesce(sum(${ledgerEntries.amount}), 0)::int AS revenue
      FROM ${ledgerEntries} JOIN ${lt} ON ${lt.id} = ${ledgerEntries.transactionId}
      WHERE ${ledgerEntries.account} = 'platform:revenue' AND ${ledgerEntries.currency} = 'cents'
      ${this.since(lt.createdAt, period)} GROUP BY 1`);
  }

  signupsByDay(period: Period, order: 'asc' | 'desc') {
    return this.rows(sql`SELECT ${this.day(users.createdAt)} AS date, count(*)::int AS users,
        (count(*) FILTER (WHERE ${creatorSql(users.roles)}))::int AS creators,
        (count(*) FILTER (WHERE ${fanAccountSql(users.roles)}))::int AS fans
      FROM ${users} WHERE ${users.deletedAt} IS NULL ${this.since(users.createdAt, period)}
      GROUP BY 1 ORDER BY 1 ${direction(order)}`);
  }

  async userTotals(): Promise<Row> {
    const [row] = await this.rows(sql`SELECT count(*)::int AS users,
        (count(*) FILTER (WHERE ${creatorSql(users.roles)}))::int AS creators,
        (count(*) FILTER (WHERE ${fanAccountSql(users.roles)}))::int AS fans,
        (SELECT count(*) FROM ${subscriptions} WHERE ${activeSubscriptionSql()})::int AS "activeSubscriptions"
      FROM ${users} WHERE ${users.deletedAt} IS NULL`);
    return row ?? {};
  }

  /**
   * Renewal and cancellation counts of the period: renewals charged; paid periods that ended
   * without one (expired); cancellations; subscriptions whose paid period overlapped the period.
   */
  async billingCounts(period: Period): Promise<Row> {
    const [row] = await this.rows(sql`SELECT
      (SELECT count(*) FROM ${lt} WHERE ${lt.kind} = 'subscription_renewal' ${this.since(lt.createdAt, period)})::int AS renewals,
      (SELECT count(*) FROM ${subscriptions} WHERE ${subscriptions.status} = 'expired'
         AND ${subscriptions.currentPeriodEnd} <= ${period.now.toISOString()}::timestamptz
         ${this.since(subscriptions.currentPeriodEnd, period)})::int AS lapsed,
      (SELECT count(*) FROM ${subscriptionBilling} WHERE ${subscriptionBilling.cancelledAt} IS NOT NULL
         ${this.since(subscriptionBilling.cancelledAt, period)})::int AS cancellations,
      (SELECT count(*) FROM ${subscriptions} JOIN ${subscriptionBilling}
         ON ${subscriptionBilling.subscriptionId} = ${subscriptions.id}
         WHERE ${subscriptionBilling.startedAt} <= ${period.now.toISOString()}::timestamptz
         ${this.since(subscriptions.currentPeriodEnd, period)})::int AS subscribed`);
    return row ?? {};
  }

  /** Creators with their sales (net, cents), earnings (their ledger share), subscribers and posts. */
  async creators(period: Period, order: 'asc' | 'desc', page: number, limit: number) {
    const items = await this.rows(sql`
      WITH sales AS (
        SELECT creator_id, sum(amount_cents) AS sales FROM (${this.sales(period)}) s GROUP BY creator_id
      ), earnings AS (
        SELECT ${ledgerEntries.account} AS account, sum(${ledgerEntries.amount}) AS earnings
        FROM ${ledgerEntries} JOIN ${lt} ON ${lt.id} = ${ledgerEntries.transactionId}
        WHERE ${ledgerEntries.account} LIKE 'creator:%' AND ${ledgerEntries.currency} = 'cents'
          AND ${lt.kind} <> 'payout' ${this.since(lt.createdAt, period)}
        GROUP BY ${ledgerEntries.account}
      ), subscribers AS (
        SELECT ${subscriptions.creatorId} AS creator_id, count(*) AS n FROM ${subscriptions}
        WHERE ${activeSubscriptionSql()} GROUP BY ${subscriptions.creatorId}
      ), published AS (
        SELECT ${posts.creatorId} AS creator_id, count(*) AS n FROM ${posts}
        WHERE ${publishedPostSql()} GROUP BY ${posts.creatorId}
      )
      SELECT u.username AS creator, u.id AS "creatorId",
        coalesce(s.sales, 0)::int AS sales, coalesce(e.earnings, 0)::int AS earnings,
        coalesce(sub.n, 0)::int AS subscribers, coalesce(p.n, 0)::int AS posts,
        (count(*) OVER ())::int AS "totalRows"
      FROM ${users} u
      LEFT JOIN sales s ON s.creator_id = u.id
      LEFT JOIN earnings e ON e.account = 'creator:' || u.id::text
      LEFT JOIN subscribers sub ON sub.creator_id = u.id
      LEFT JOIN published p ON p.creator_id = u.id
      WHERE ${creatorSql(sql`u.roles`)} AND u.deleted_at IS NULL
      ORDER BY sales ${direction(order)}, u.username LIMIT ${limit} OFFSET ${(page - 1) * limit}`);
    return this.paged(items, page, this.creatorCount);
  }

  async salesByCreator(period: Period, order: 'asc' | 'desc', page: number, limit: number) {
    const items = await this.rows(sql`SELECT u.username AS creator, ${CATEGORY_SUMS},
        coalesce(sum(s.amount_cents), 0)::int AS total, (count(*) OVER ())::int AS "totalRows"
      FROM ${users} u LEFT JOIN (${this.sales(period)}) s ON s.creator_id = u.id
      WHERE ${creatorSql(sql`u.roles`)} AND u.deleted_at IS NULL
      GROUP BY u.id, u.username ORDER BY total ${direction(order)}, u.username
      LIMIT ${limit} OFFSET ${(page - 1) * limit}`);
    return this.paged(items, page, this.creatorCount);
  }

  /** Credit bags sold: how many, how many credits, and the net amount. */
  bags(period: Period, order: 'asc' | 'desc') {
    return this.rows(sql`SELECT b.id AS bag, b.credits, b.price_cents AS price,
        coalesce(s.sold, 0)::int AS sold, coalesce(s.amount, 0)::int AS amount
      FROM ${creditBags} b LEFT JOIN (
        SELECT abs(credits) AS credits, count(*) FILTER (WHERE kind = 'credits_purchase') AS sold,
          sum(amount_cents) AS amount
        FROM (${this.sales(period)}) s WHERE category = 'dollars' GROUP BY abs(credits)
      ) s ON s.credits = b.credits
      ORDER BY amount ${direction(order)}, b.credits DESC`);
  }

  /** Fans by what they spent: credits spent (their value in cents), cash paid, active subscriptions. */
  async fans(period: Period, order: 'asc' | 'desc', page: number, limit: number) {
    const items = await this.rows(sql`
      WITH spending AS (
        SELECT user_id,
          sum(amount_cents) FILTER (WHERE category IN ('content', 'gifts', 'flowers', 'tips', 'live')) AS spent,
          sum(amount_cents) FILTER (WHERE category IN ('dollars', 'subscriptions')) AS paid
        FROM (${this.sales(period)}) s GROUP BY user_id
      ), subscribed AS (
        SELECT ${subscriptions.fanId} AS fan_id, count(*) AS n FROM ${subscriptions}
        WHERE ${activeSubscriptionSql()} GROUP BY ${subscriptions.fanId}
      )
      SELECT u.username AS fan, coalesce(s.spent, 0)::int AS spent, coalesce(s.paid, 0)::int AS paid,
        coalesce(sub.n, 0)::int AS subscriptions, (count(*) OVER ())::int AS "totalRows"
      FROM ${users} u LEFT JOIN spending s ON s.user_id = u.id LEFT JOIN subscribed sub ON sub.fan_id = u.id
      WHERE ${fanAccountSql(sql`u.roles`)} AND u.deleted_at IS NULL
      ORDER BY paid ${direction(order)}, spent DESC, u.username LIMIT ${limit} OFFSET ${(page - 1) * limit}`);
    return this.paged(
      items,
      page,
      sql`SELECT count(*)::int AS n FROM ${users} WHERE ${fanAccountSql(users.roles)} AND ${users.deletedAt} IS NULL`,
    );
  }

  async creatorSubscribers(creatorId: string, period: Period): Promise<{ active: number; new: number }> {
    const [row] = await this.rows(sql`SELECT
        (count(*) FILTER (WHERE ${activeSubscriptionSql()}))::int AS active,
        (count(*) FILTER (WHERE true ${this.since(subscriptions.createdAt, period)}))::int AS "new"
      FROM ${subscriptions} WHERE ${subscriptions.creatorId} = ${creatorId}`);
    return { active: Number(row?.active ?? 0), new: Number(row?.new ?? 0) };
  }

  /** The creator's best posts of the period by their earnings, then likes. */
  topPosts(creatorId: string, period: Period, limit: number) {
    const own = sql`SELECT ${posts.id} FROM ${posts} WHERE ${posts.creatorId} = ${creatorId}`;
    return this.rows(sql`
      WITH likes AS (
        SELECT ${postLikes.postId} AS post_id, count(*) AS n FROM ${postLikes}
        WHERE ${postLikes.postId} IN (${own}) GROUP BY ${postLikes.postId}
      ), replies AS (
        SELECT c.post_id, count(*) AS n FROM comments c WHERE c.post_id IN (${own}) GROUP BY c.post_id
      ), unlocked AS (
        SELECT ${unlocks.postId} AS post_id, count(*) AS n FROM ${unlocks}
        WHERE ${unlocks.postId} IN (${own}) GROUP BY ${unlocks.postId}
      ), earned AS (
        SELECT ${lt.postId} AS post_id, sum(${ledgerEntries.amount}) AS n
        FROM ${ledgerEntries} JOIN ${lt} ON ${lt.id} = ${ledgerEntries.transactionId}
        WHERE ${lt.creatorId} = ${creatorId} AND ${lt.postId} IS NOT NULL
          AND ${ledgerEntries.account} = ${`creator:${creatorId}`} AND ${ledgerEntries.currency} = 'cents'
          ${this.since(lt.createdAt, period)}
        GROUP BY ${lt.postId}
      )
      SELECT p.id AS _id, p.message, coalesce(l.n, 0)::int AS likes, coalesce(r.n, 0)::int AS comments,
        coalesce(u.n, 0)::int AS unlocks, coalesce(e.n, 0)::int AS earnings
      FROM ${posts} p
      LEFT JOIN likes l ON l.post_id = p.id LEFT JOIN replies r ON r.post_id = p.id
      LEFT JOIN unlocked u ON u.post_id = p.id LEFT JOIN earned e ON e.post_id = p.id
      WHERE p.creator_id = ${creatorId} AND ${livePostSql({ status: sql`p.status` })}
        AND p.kind = 'post'
      ORDER BY earnings DESC, likes DESC, p.created_at DESC LIMIT ${limit}`);
  }

  /** The rows of a page without their window total; the total is counted apart only past the end. */
  private async paged(rows: Row[], page: number, countAll: SQL) {
    const items = rows.map(({ totalRows: _total, ...rest }) => rest);
    if (rows.length) return { items, total: Number(rows[0]!.totalRows) };
    if (page === 1) return { items, total: 0 };
    const [count] = await this.rows(countAll);
    return { items, total: Number(count?.n ?? 0) };
  }
}
