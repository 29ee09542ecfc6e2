import { and, eq, inArray, isNotNull, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { ACCESS_STATUSES } from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import {
  comments,
  contactRequests,
  creatorApplications,
  follows,
  galleryCategories,
  identityDocuments,
  ledgerEntries,
  ledgerTransactions,
  liveMessages,
  liveModerations,
  liveStreamKeys,
  lives,
  liveTickets,
  mailOutbox,
  media,
  messages,
  messageUnlocks,
  notifications,
  passwordResetCodes,
  payoutMethods,
  payouts,
  postLikes,
  postSaves,
  posts,
  profiles,
  subscriptionBilling,
  subscriptions,
  unlocks,
  userBlocks,
  userIdentities,
  users,
} from '../../db/schema.ts';
import type { JobTransaction } from '../../jobs/job.ts';
import { jobTransaction } from '../../jobs/pg-boss-db.ts';
import { storageKeys } from '../../media/media.repository.ts';
import { rethread } from '../comments/comment-thread.ts';
import { ACCOUNTS } from '../wallet/money.math.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What replaces the identity of a deleted account. */
export interface Placeholder {
  username: string;
  email: string;
  passwordHash: string;
}

/** The stored files of the rows the erasure deleted: removed by a job queued in its transaction. */
export interface ErasedFiles {
  /** Public media storage keys (originals, renditions, HLS files, captions). */
  media: string[];
  /** Ids of the media deleted: their marked copies (ADR 0026) go too. */
  marked: string[];
  /** Identity photo keys in the private storage. */
  identity: string[];
  /** Lives deleted: their folders, the engine's files and the kept mark references. */
  lives: string[];
}

/** What the erasure removed and what is left to do once it has committed. */
export interface ErasedAccount {
  files: ErasedFiles;
  /** Other users whose notifications or unread messages changed (their counters are pushed again). */
  affectedUserIds: string[];
  /** The payout method stays while money is still owed to the account (see ADR 0011). */
  payoutMethodKept: boolean;
  counts: Record<string, number>;
}

/**
 * Account deletion (ADR 0011): every personal datum and every piece of content of one account is
 * removed in one transaction, which also queues the removal of their stored files (`enqueue`, sent
 * `within` it); the money records (ledger, wallets, checkouts, payment events, payouts) stay,
 * pointing at the anonymised user row. Queries only.
 */
export class AccountDeletionRepository {
  constructor(private readonly db: Db) {}

  /**
   * Answers null when the account does not exist or was already deleted. `enqueue` queues the
   * removal of the files in the transaction: there are no files left without a job to remove them.
   */
  async erase(
    userId: string,
    placeholder: Placeholder,
    at: Date,
    enqueue: (files: ErasedFiles, within: JobTransaction) => Promise<void>,
  ): Promise<ErasedAccount | null> {
    return this.db.transaction(async (tx) => {
      // The row lock makes two concurrent deletions of the same account run one after the other.
      const [user] = await tx
        .select({ username: users.username, email: users.email, deletedAt: users.deletedAt })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      if (!user || user.deletedAt) return null;
      const counts: Record<string, number> = {};
      const affected = new Set<string>();

      const postIds = (await tx.select({ id: posts.id }).from(posts).where(eq(posts.creatorId, userId))).map(
        (r) => r.id,
      );
      const sentIds = (
        await tx.select({ id: messages.id }).from(messages).where(eq(messages.fromId, userId))
      ).map((r) => r.id);

      // Notifications: the account's own, and other people's that name it (actor) or point at its
      // posts or messages. Payloads hold the username and text excerpts, so these are deleted.
      counts.ownNotifications = await this.count(
        tx.delete(notifications).where(eq(notifications.userId, userId)).returning({ id: notifications.id }),
      );
      const mentions: SQL[] = [
        sql`lower(${notifications.payload}->>'actor') = ${user.username.toLowerCase()}`,
      ];
      if (postIds.length) mentions.push(inArray(sql`${notifications.payload}->>'postId'`, postIds));
      if (sentIds.length) mentions.push(inArray(sql`${notifications.payload}->>'messageId'`, sentIds));
      const othersNotified = await tx
        .delete(notifications)
        .where(and(ne(notifications.userId, userId), or(...mentions)))
        .returning({ userId: notifications.userId });
      counts.othersNotifications = othersNotified.length;
      for (const r of othersNotified) affected.add(r.userId);

      // Posts and stories: media links, likes, saves, comments (anyone's) and unlocks cascade.
      counts.posts = await this.count(
        tx.delete(posts).where(eq(posts.creatorId, userId)).returning({ id: posts.id }),
      );
      counts.comments = await this.removeComments(tx, userId);

      // Messages sent: message media links and unlocks cascade. Messages received stay with their
      // sender (the conversation is no longer listed: contacts skip deleted accounts).
      const sent = await tx
        .delete(messages)
        .where(eq(messages.fromId, userId))
        .returning({ toId: messages.toId });
      counts.messages = sent.length;
      for (const r of sent) affected.add(r.toId);

      counts.galleries = await this.count(
        tx
          .delete(galleryCategories)
          .where(eq(galleryCategories.creatorId, userId))
          .returning({ id: galleryCategories.id }),
      );
      const mediaRows = await tx.delete(media).where(eq(media.ownerId, userId)).returning({
        id: media.id,
        originalKey: media.originalKey,
        webKey: media.webKey,
        thumbKey: media.thumbKey,
        blurKey: media.blurKey,
        posterKey: media.posterKey,
        info: media.info,
        captions: media.captions,
      });
      counts.media = mediaRows.length;

      // Lives: theirs go with their tickets, chat (everyone's lines in it), moderation and serve
      // records (cascade). The ledger keeps what was spent on them. Elsewhere: their chat lines,
      // their tickets and the moderation of them in other creators' lives. Their RTMP stream key.
      const liveRows = await tx.delete(lives).where(eq(lives.creatorId, userId)).returning({ id: lives.id });
      counts.lives = liveRows.length;
      counts.liveMessages = await this.count(
        tx.delete(liveMessages).where(eq(liveMessages.userId, userId)).returning({ id: liveMessages.id }),
      );
      await tx.delete(liveTickets).where(eq(liveTickets.userId, userId));
      await tx.delete(liveModerations).where(eq(liveModerations.userId, userId));
      await tx.delete(liveStreamKeys).where(eq(liveStreamKeys.creatorId, userId));

      // Reactions, entitlements and relations of the account, in both directions.
      counts.likes = await this.count(
        tx.delete(postLikes).where(eq(postLikes.userId, userId)).returning({ id: postLikes.postId }),
      );
      counts.saves = await this.count(
        tx.delete(postSaves).where(eq(postSaves.userId, userId)).returning({ id: postSaves.postId }),
      );
      await tx.delete(unlocks).where(eq(unlocks.userId, userId));
      await tx.delete(messageUnlocks).where(eq(messageUnlocks.userId, userId));
      counts.follows = await this.count(
        tx
          .delete(follows)
          .where(or(eq(follows.followerId, userId), eq(follows.creatorId, userId)))
          .returning({ id: follows.creatorId }),
      );
      counts.blocks = await this.count(
        tx
          .delete(userBlocks)
          .where(or(eq(userBlocks.blockerId, userId), eq(userBlocks.blockedId, userId)))
          .returning({ id: userBlocks.blockedId }),
      );

      // Account mail and forms.
      const email = user.email.toLowerCase();
      await tx.delete(passwordResetCodes).where(eq(passwordResetCodes.userId, userId));
      // A deleted account's provider accounts may sign up anew.
      await tx.delete(userIdentities).where(eq(userIdentities.userId, userId));
      counts.contactRequests = await this.count(
        tx
          .delete(contactRequests)
          .where(or(eq(contactRequests.userId, userId), sql`lower(${contactRequests.email}) = ${email}`))
          .returning({ id: contactRequests.id }),
      );
      counts.outbox = await this.count(
        tx.delete(mailOutbox).where(sql`lower(${mailOutbox.to}) = ${email}`).returning({ id: mailOutbox.id }),
      );

      // Creator application and its identity photos (the files go after the commit).
      const applicationIds = (
        await tx
          .select({ id: creatorApplications.id })
          .from(creatorApplications)
          .where(eq(creatorApplications.userId, userId))
      ).map((r) => r.id);
      const documents = applicationIds.length
        ? await tx
            .delete(identityDocuments)
            .where(inArray(identityDocuments.applicationId, applicationIds))
            .returning({ key: identityDocuments.storageKey })
        : [];
      await tx.delete(creatorApplications).where(eq(creatorApplications.userId, userId));

      // Subscriptions both ways end now: no access, no renewal from our side (expired is the
      // state the subscription module ends a subscription with; billing records the cancellation).
      const ended = await tx
        .update(subscriptions)
        .set({
          status: 'expired',
          currentPeriodEnd: sql`least(${subscriptions.currentPeriodEnd}, ${at.toISOString()}::timestamptz)`,
          updatedAt: at,
        })
        .where(
          and(
            or(eq(subscriptions.fanId, userId), eq(subscriptions.creatorId, userId)),
            inArray(subscriptions.status, ACCESS_STATUSES),
          ),
        )
        .returning({ id: subscriptions.id });
      counts.subscriptionsEnded = ended.length;
      if (ended.length) {
        await tx
          .update(subscriptionBilling)
          .set({ cancelledAt: at })
          .where(
            and(
              inArray(
                subscriptionBilling.subscriptionId,
                ended.map((s) => s.id),
              ),
              isNull(subscriptionBilling.cancelledAt),
            ),
          );
      }

      // Payout method: bank or card data. Kept only while money is still owed to the account.
      const payoutMethodKept = await this.owesMoney(tx, userId);
      if (!payoutMethodKept) await tx.delete(payoutMethods).where(eq(payoutMethods.userId, userId));

      // The ledger stays as it is, except the free text a fan wrote with a tip or gift.
      await tx
        .update(ledgerTransactions)
        .set({ memo: null })
        .where(and(eq(ledgerTransactions.userId, userId), isNotNull(ledgerTransactions.memo)));

      await tx
        .update(users)
        .set({
          username: placeholder.username,
          email: placeholder.email,
          name: 'Deleted user',
          passwordHash: placeholder.passwordHash,
          birthdate: null,
          country: null,
          online: false,
          lastConnection: null,
          deletedAt: at,
          updatedAt: at,
        })
        .where(eq(users.id, userId));
      await tx
        .update(profiles)
        .set({ displayName: null, about: null, location: null, avatar: null, cover: null, updatedAt: at })
        .where(eq(profiles.userId, userId));

      affected.delete(userId);
      const files: ErasedFiles = {
        media: [...new Set(mediaRows.flatMap(storageKeys))],
        marked: mediaRows.map((m) => m.id),
        identity: documents.map((d) => d.key),
        lives: liveRows.map((l) => l.id),
      };
      await enqueue(files, jobTransaction(tx));
      return {
        files,
        affectedUserIds: [...affected],
        payoutMethodKept,
        counts,
      };
    });
  }

  /**
   * Removes the account's comments on other people's posts. Replies by others stay visible: they
   * move to the nearest remaining comment of their thread (`rethread`).
   */
  private async removeComments(tx: Tx, userId: string): Promise<number> {
    const mine = await tx
      .select({ id: comments.id, rootId: comments.rootId })
      .from(comments)
      .where(eq(comments.userId, userId));
    if (!mine.length) return 0;
    const removed = new Set(mine.map((c) => c.id));
    const roots = [...new Set(mine.map((c) => c.rootId ?? c.id))];
    const rows = await tx
      .select({
        id: comments.id,
        parentId: comments.parentId,
        rootId: comments.rootId,
        deep: comments.deep,
        createdAt: comments.createdAt,
      })
      .from(comments)
      .where(or(inArray(comments.id, roots), inArray(comments.rootId, roots)));
    const threads = new Map<string, typeof rows>();
    for (const r of rows) {
      const root = r.rootId ?? r.id;
      threads.set(root, [...(threads.get(root) ?? []), r]);
    }
    for (const thread of threads.values()) {
      for (const change of rethread(thread, removed)) {
        await tx
          .update(comments)
          .set({ parentId: change.parentId, rootId: change.rootId, deep: change.deep })
          .where(eq(comments.id, change.id));
      }
    }
    return this.count(tx.delete(comments).where(eq(comments.userId, userId)).returning({ id: comments.id }));
  }

  /** A payout still scheduled, or creator earnings not paid out yet (held or available). */
  private async owesMoney(tx: Tx | Db, userId: string): Promise<boolean> {
    const [scheduled] = await tx
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(eq(payouts.creatorId, userId), eq(payouts.status, 'scheduled')))
      .limit(1);
    if (scheduled) return true;
    const [balance] = await tx
      .select({ cents: sql<string | null>`sum(${ledgerEntries.amount})` })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.account, ACCOUNTS.creator(userId)), eq(ledgerEntries.currency, 'cents')));
    return Number(balance?.cents ?? 0) > 0;
  }

  /**
   * Payout methods of deleted accounts that nothing is owed to any more (their last scheduled
   * payout was decided): deleted. Answers how many.
   */
  async sweepPayoutMethods(): Promise<number> {
    const kept = await this.db
      .select({ userId: payoutMethods.userId })
      .from(payoutMethods)
      .innerJoin(users, eq(users.id, payoutMethods.userId))
      .where(isNotNull(users.deletedAt));
    let removed = 0;
    for (const { userId } of kept) {
      const done = await this.db.transaction(async (tx) => {
        if (await this.owesMoney(tx, userId)) return false;
        const rows = await tx
          .delete(payoutMethods)
          .where(eq(payoutMethods.userId, userId))
          .returning({ userId: payoutMethods.userId });
        return rows.length > 0;
      });
      if (done) removed += 1;
    }
    return removed;
  }

  private async count(query: Promise<unknown[]>): Promise<number> {
    return (await query).length;
  }
}
