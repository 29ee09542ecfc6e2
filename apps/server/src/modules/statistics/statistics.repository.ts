import { type SQL, sql } from 'drizzle-orm';
import {
  activeSubscriptionSql,
  creatorSql,
  fanAccountSql,
  livePostSql,
  publishedPostSql,
} from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import { posts, subscriptions } from '../../db/schema.ts';
import { rowsOf } from '../wallet/ledger.repository.ts';

type Row = Record<string, string | number | null>;

/**
 * Statistics are queries over the ledger and the activity tables, never counters kept on the side.
 * A refund or chargeback keeps its sale's category with a negative amount, so sums are net.
 */
const SALES = (since: Date | null, creatorId?: string) => sql`
  SELECT t.id, t.created_at, t.creator_id, t.user_id, t.amount_cents, t.credits, t.kind,
    CASE coalesce(o.kind, t.kind)
      WHEN 'subscription' THEN 'subscriptions' WHEN 'unlock' THEN 'content' WHEN 'message_unlock' THEN 'content'
      WHEN 'gift' THEN 'gifts' WHEN 'flowers' THEN 'flowers' WHEN 'tip' THEN 'tips'
      WHEN 'credits_purchase' THEN 'dollars' END AS category
  FROM ledger_transactions t
  LEFT JOIN ledger_transactions o ON o.id = t.related_id AND t.kind IN ('refund', 'chargeback')
  WHERE t.kind IN ('subscription', 'unlock', 'message_unlock', 'gift', 'flowers', 'tip', 'credits_purchase', 'refund', 'chargeback')
    ${since ? sql`AND t.created_at >= ${since.toISOString()}` : sql``}
    ${creatorId ? sql`AND t.creator_id = ${creatorId}` : sql``}`;

const CATEGORY_SUMS = sql`
  coalesce(sum(amount_cents) FILTER (WHERE category = 'subscriptions'), 0)::int AS subscriptions,
  coalesce(sum(amount_cents) FILTER (WHERE category = 'content'), 0)::int AS content,
  coalesce(sum(amount_cents) FILTER (WHERE category = 'gifts'), 0)::int AS gifts,
  coalesce(sum(amount_cents) FILTER (WHERE category = 'flowers'), 0)::int AS flowers,
  coalesce(sum(amount_cents) FILTER (WHERE category = 'tips'), 0)::int AS tips,
  coalesce(sum(amount_cents) FILTER (WHERE category = 'dollars'), 0)::int AS dollars`;

export class StatisticsRepository {
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

  private day(column: SQL) {
    return sql`to_char(${column} AT TIME ZONE ${this.timezone}, 'YYYY-MM-DD')`;
  }

  salesByDay(since: Date | null, order: 'asc' | 'desc', creatorId?: string) {
    return this.rows(sql`SELECT ${this.day(sql`created_at`)} AS date, ${CATEGORY_SUMS}
      FROM (${SALES(since, creatorId)}) s GROUP BY 1 ORDER BY 1 ${order === 'asc' ? sql`ASC` : sql`DESC`}`);
  }

  async salesTotals(since: Date | null, creatorId?: string): Promise<Row> {
    const [row] = await this.rows(sql`SELECT ${CATEGORY_SUMS} FROM (${SALES(since, creatorId)}) s`);
    return row ?? {};
  }

  async platformRevenue(since: Date | null): Promise<number> {
    const [row] = await this.rows(sql`SELECT coalesce(sum(e.amount), 0)::int AS revenue
      FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE e.account = 'platform:revenue' AND e.currency = 'cents'
      ${since ? sql`AND t.created_at >= ${since.toISOString()}` : sql``}`);
    return Number(row?.revenue ?? 0);
  }

  revenueByDay(since: Date | null) {
    return this.rows(sql`SELECT ${this.day(sql`t.created_at`)} AS date, coalesce(sum(e.amount), 0)::int AS revenue
      FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE e.account = 'platform:revenue' AND e.currency = 'cents'
      ${since ? sql`AND t.created_at >= ${since.toISOString()}` : sql``} GROUP BY 1`);
  }

  signupsByDay(since: Date | null, order: 'asc' | 'desc') {
    return this.rows(sql`SELECT ${this.day(sql`created_at`)} AS date, count(*)::int AS users,
        (count(*) FILTER (WHERE ${creatorSql(sql`roles`)}))::int AS creators,
        (count(*) FILTER (WHERE ${fanAccountSql(sql`roles`)}))::int AS fans
      FROM users WHERE deleted_at IS NULL ${since ? sql`AND created_at >= ${since.toISOString()}` : sql``}
      GROUP BY 1 ORDER BY 1 ${order === 'asc' ? sql`ASC` : sql`DESC`}`);
  }

  async userTotals(): Promise<Row> {
    const [row] = await this.rows(sql`SELECT count(*)::int AS users,
        (count(*) FILTER (WHERE ${creatorSql(sql`roles`)}))::int AS creators,
        (count(*) FILTER (WHERE ${fanAccountSql(sql`roles`)}))::int AS fans,
        (SELECT count(*) FROM ${subscriptions} WHERE ${activeSubscriptionSql()})::int AS "activeSubscriptions"
      FROM users WHERE deleted_at IS NULL`);
    return row ?? {};
  }

  /** Creators with their sales (net, cents), earnings (their ledger share), subscribers and posts. */
  async creators(since: Date | null, order: 'asc' | 'desc', page: number, limit: number) {
    const items = await this.rows(sql`SELECT u.username AS creator, u.id AS "creatorId",
        coalesce((SELECT sum(s.amount_cents) FROM (${SALES(since)}) s WHERE s.creator_id = u.id), 0)::int AS sales,
        coalesce((SELECT sum(e.amount) FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
          WHERE e.account = 'creator:' || u.id::text AND e.currency = 'cents' AND t.kind <> 'payout'
          ${since ? sql`AND t.created_at >= ${since.toISOString()}` : sql``}), 0)::int AS earnings,
        (SELECT count(*) FROM ${subscriptions} WHERE ${subscriptions.creatorId} = u.id AND ${activeSubscriptionSql()})::int AS subscribers,
        (SELECT count(*) FROM ${posts} WHERE ${posts.creatorId} = u.id AND ${publishedPostSql()})::int AS posts
      FROM users u WHERE ${creatorSql(sql`u.roles`)} AND u.deleted_at IS NULL
      ORDER BY sales ${order === 'asc' ? sql`ASC` : sql`DESC`}, u.username LIMIT ${limit} OFFSET ${(page - 1) * limit}`);
    const [count] = await this.rows(
      sql`SELECT count(*)::int AS n FROM users WHERE ${creatorSql(sql`roles`)} AND deleted_at IS NULL`,
    );
    return { items, total: Number(count?.n ?? 0) };
  }

  async salesByCreator(since: Date | null, order: 'asc' | 'desc', page: number, limit: number) {
    const items =
      await this.rows(sql`SELECT u.username AS creator, ${CATEGORY_SUMS}, coalesce(sum(s.amount_cents), 0)::int AS total
      FROM users u LEFT JOIN (${SALES(since)}) s ON s.creator_id = u.id
      WHERE ${creatorSql(sql`u.roles`)} AND u.deleted_at IS NULL
      GROUP BY u.username ORDER BY total ${order === 'asc' ? sql`ASC` : sql`DESC`}, u.username
      LIMIT ${limit} OFFSET ${(page - 1) * limit}`);
    const [count] = await this.rows(
      sql`SELECT count(*)::int AS n FROM users WHERE ${creatorSql(sql`roles`)} AND deleted_at IS NULL`,
    );
    return { items, total: Number(count?.n ?? 0) };
  }

  /** Credit bags sold: how many, how many credits, and the net amount. */
  bags(since: Date | null, order: 'asc' | 'desc') {
    return this.rows(sql`SELECT b.id AS bag, b.credits, b.price_cents AS price,
        (SELECT count(*) FROM (${SALES(since)}) s WHERE s.kind = 'credits_purchase' AND s.credits = b.credits)::int AS sold,
        coalesce((SELECT sum(s.amount_cents) FROM (${SALES(since)}) s WHERE s.category = 'dollars' AND abs(s.credits) = b.credits), 0)::int AS amount
      FROM credit_bags b ORDER BY amount ${order === 'asc' ? sql`ASC` : sql`DESC`}, b.credits DESC`);
  }

  /** Fans by what they spent: credits spent (their value in cents), cash paid, active subscriptions. */
  async fans(since: Date | null, order: 'asc' | 'desc', page: number, limit: number) {
    const where = sql`${fanAccountSql(sql`u.roles`)} AND u.deleted_at IS NULL`;
    const items = await this.rows(sql`SELECT u.username AS fan,
        coalesce((SELECT sum(s.amount_cents) FROM (${SALES(since)}) s WHERE s.user_id = u.id AND s.category IN ('content', 'gifts', 'flowers', 'tips')), 0)::int AS spent,
        coalesce((SELECT sum(s.amount_cents) FROM (${SALES(since)}) s WHERE s.user_id = u.id AND s.category IN ('dollars', 'subscriptions')), 0)::int AS paid,
        (SELECT count(*) FROM ${subscriptions} WHERE ${subscriptions.fanId} = u.id AND ${activeSubscriptionSql()})::int AS subscriptions
      FROM users u WHERE ${where}
      ORDER BY paid ${order === 'asc' ? sql`ASC` : sql`DESC`}, spent DESC, u.username LIMIT ${limit} OFFSET ${(page - 1) * limit}`);
    const [count] = await this.rows(sql`SELECT count(*)::int AS n FROM users u WHERE ${where}`);
    return { items, total: Number(count?.n ?? 0) };
  }

  async creatorSubscribers(creatorId: string, since: Date | null): Promise<{ active: number; new: number }> {
    const [row] = await this.rows(sql`SELECT
        (count(*) FILTER (WHERE ${activeSubscriptionSql()}))::int AS active,
        (count(*) FILTER (WHERE ${since ? sql`created_at >= ${since.toISOString()}` : sql`true`}))::int AS "new"
      FROM subscriptions WHERE creator_id = ${creatorId}`);
    return { active: Number(row?.active ?? 0), new: Number(row?.new ?? 0) };
  }

  topPosts(creatorId: string, since: Date | null, limit: number) {
    return this.rows(sql`SELECT p.id AS _id, p.message,
        (SELECT count(*) FROM post_likes l WHERE l.post_id = p.id)::int AS likes,
        (SELECT count(*) FROM comments c WHERE c.post_id = p.id)::int AS comments,
        (SELECT count(*) FROM unlocks u WHERE u.post_id = p.id)::int AS unlocks,
        coalesce((SELECT sum(e.amount) FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
          WHERE t.post_id = p.id AND e.account = 'creator:' || p.creator_id::text AND e.currency = 'cents'
          ${since ? sql`AND t.created_at >= ${since.toISOString()}` : sql``}), 0)::int AS earnings
      FROM posts p WHERE p.creator_id = ${creatorId} AND ${livePostSql({ status: sql`p.status` })} AND p.kind = 'post'
      ORDER BY earnings DESC, likes DESC, p.created_at DESC LIMIT ${limit}`);
  }
}
