import { and, asc, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { offerLinks, subscriptionBundles, welcomeMessageMedia, welcomeMessages } from '../../db/schema.ts';

export type OfferLinkRow = typeof offerLinks.$inferSelect;
export type BundleRow = typeof subscriptionBundles.$inferSelect;

/** Bundles, offer links and welcome messages. Queries only. */
export class OfferRepository {
  constructor(private readonly db: Db) {}

  bundles(creatorId: string): Promise<BundleRow[]> {
    return this.db
      .select()
      .from(subscriptionBundles)
      .where(eq(subscriptionBundles.creatorId, creatorId))
      .orderBy(asc(subscriptionBundles.months));
  }

  /** Replaces the creator's bundles in one statement pair (the caller's transaction). */
  async setBundles(creatorId: string, bundles: { months: number; discountPercent: number }[]): Promise<void> {
    await this.db.delete(subscriptionBundles).where(eq(subscriptionBundles.creatorId, creatorId));
    if (bundles.length)
      await this.db.insert(subscriptionBundles).values(bundles.map((b) => ({ creatorId, ...b })));
  }

  async createLink(values: typeof offerLinks.$inferInsert): Promise<OfferLinkRow> {
    const [row] = await this.db.insert(offerLinks).values(values).returning();
    if (!row) throw new Error('offer link not stored');
    return row;
  }

  links(creatorId: string): Promise<OfferLinkRow[]> {
    return this.db
      .select()
      .from(offerLinks)
      .where(eq(offerLinks.creatorId, creatorId))
      .orderBy(desc(offerLinks.createdAt));
  }

  async link(code: string): Promise<OfferLinkRow | undefined> {
    const [row] = await this.db.select().from(offerLinks).where(eq(offerLinks.code, code));
    return row;
  }

  async linkById(id: string): Promise<OfferLinkRow | undefined> {
    const [row] = await this.db.select().from(offerLinks).where(eq(offerLinks.id, id));
    return row;
  }

  /**
   * Counts one use when a use is left: a single guarded update, so concurrent redemptions can never
   * pass the limit (the check constraint backs it). Answers whether the use was counted.
   */
  async redeem(id: string): Promise<boolean> {
    const rows = await this.db
      .update(offerLinks)
      .set({ uses: sql`${offerLinks.uses} + 1` })
      .where(and(eq(offerLinks.id, id), lt(offerLinks.uses, offerLinks.maxUses)))
      .returning({ id: offerLinks.id });
    return rows.length === 1;
  }

  async welcome(creatorId: string) {
    const [row] = await this.db
      .select()
      .from(welcomeMessages)
      .where(eq(welcomeMessages.creatorId, creatorId));
    return row;
  }

  /** Ids of the vault files attached to the welcome message, in order. */
  async welcomeMedia(creatorId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: welcomeMessageMedia.mediaId })
      .from(welcomeMessageMedia)
      .where(eq(welcomeMessageMedia.creatorId, creatorId))
      .orderBy(asc(welcomeMessageMedia.position));
    return rows.map((r) => r.id);
  }

  /** The message and its files, replaced together (call inside the store's transaction). */
  async setWelcome(
    creatorId: string,
    v: { text: string; active: boolean; price: number },
    mediaIds: string[],
    at: Date,
  ): Promise<void> {
    await this.db
      .insert(welcomeMessages)
      .values({ creatorId, ...v, updatedAt: at })
      .onConflictDoUpdate({ target: welcomeMessages.creatorId, set: { ...v, updatedAt: at } });
    await this.db.delete(welcomeMessageMedia).where(eq(welcomeMessageMedia.creatorId, creatorId));
    if (mediaIds.length)
      await this.db
        .insert(welcomeMessageMedia)
        .values(mediaIds.map((mediaId, position) => ({ creatorId, mediaId, position })));
  }
}
