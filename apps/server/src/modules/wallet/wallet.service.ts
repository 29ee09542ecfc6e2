import { randomUUID } from 'node:crypto';
import type { Role } from '@fanverse/contract';
import { discountedPrice, type NotificationKind, pageStatistics } from '@fanverse/contract';
import { isCreator, mayReceiveFreeCredits } from '../../access/index.ts';
import type { MoneyConfig } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { NotificationService } from '../notifications/notification.service.ts';
import type { PostListRow } from '../posts/post.repository.ts';
import type { FeatureGate } from '../settings/platform-settings.ts';
import { presentPublicUser } from '../users/public-user.presenter.ts';
import { freeCreditLegs, spendLegs } from './money.math.ts';
import type { MoneyRepos, MoneyStore } from './money.unit.ts';
import type { MoneyTerms } from './terms.service.ts';

export interface WalletDeps {
  store: MoneyStore;
  terms: MoneyTerms;
  /** Feature switches (tips, flowers and gifts). */
  features: FeatureGate;
  config: MoneyConfig;
  /** The post as the caller may see it (NOT_FOUND otherwise). */
  visiblePost(auth: AuthInfo, postId: string): Promise<PostListRow>;
  findCreator(handle: string): Promise<{ id: string; username: string; roles: Role[] } | undefined>;
  notifications: Pick<NotificationService, 'notify'>;
  now?: () => Date;
}

interface Spend {
  fanId: string;
  creatorId: string;
  credits: number;
  kind: 'unlock' | 'message_unlock' | 'tip' | 'flowers' | 'gift' | 'live_ticket';
  category: 'content' | 'tips' | 'flowers' | 'gifts' | 'live';
  key: string;
  postId?: string | null;
  messageId?: string | null;
  memo?: string | null;
  /** Records the entitlement; false when it already existed (nothing is charged). */
  entitle?: (repos: MoneyRepos) => Promise<boolean>;
}

const NOTICE: Record<Spend['kind'], NotificationKind> = {
  unlock: 'unlock',
  message_unlock: 'unlock',
  tip: 'tip',
  flowers: 'flowers',
  gift: 'gift',
  live_ticket: 'live_ticket',
};

/** A spend made during a live: counted in the "live" category, its ledger key names the live. */
export interface LiveSpend {
  liveId: string;
  /** `live:<liveId>:<kind>:<unique>` (live.repository liveSpendKey). */
  key: (kind: string, unique: string) => string;
}

/**
 * Fans' credits: balance, history, and spends (unlocks, tips, flowers, gifts). A spend locks the
 * wallet row, is all-or-nothing, never leaves a balance below zero and never charges twice for one unlock.
 */
export class WalletService {
  private readonly now: () => Date;

  constructor(private readonly deps: WalletDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async wallet(auth: AuthInfo) {
    if (mayReceiveFreeCredits(auth)) await this.grantFreeCredits(auth.userId);
    const [credits, free] = await Promise.all([
      this.deps.store.ledger.walletCredits(auth.userId),
      this.deps.store.ledger.findByKey(`free-credits:${auth.userId}`),
    ]);
    return { credits, creditValueCents: this.deps.config.creditValueCents, freeCreditsGranted: !!free };
  }

  /** The verified flag's free credits, once per account; answers the credits granted now (0 when done before). */
  async grantFreeCredits(userId: string): Promise<number> {
    const credits = this.deps.config.verifiedFreeCredits;
    return (await this.grantCredits(userId, credits, `free-credits:${userId}`)) ? credits : 0;
  }

  /** Platform-issued credits (verified bonus, demo seed), once per key; answers whether they were granted now. */
  async grantCredits(userId: string, credits: number, key: string): Promise<boolean> {
    if (credits <= 0 || (await this.deps.store.ledger.findByKey(key))) return false;
    return this.deps.store.transaction(async (r) => {
      await r.ledger.lockWallet(userId);
      const row = await r.ledger.post(
        { kind: 'free_credits', key, userId, credits, at: this.now() },
        freeCreditLegs(userId, credits),
      );
      if (row) await r.ledger.changeWallet(userId, credits);
      return !!row;
    });
  }

  async history(auth: AuthInfo, page: number, limit: number) {
    const { items, total } = await this.deps.store.ledger.creditHistory(auth.userId, page, limit);
    return {
      items: items.map((i) => ({
        _id: i.id,
        kind: i.kind,
        credits: i.credits,
        creator: i.creator && presentPublicUser(i.creator),
        post: i.postId,
        date: i.createdAt.toISOString(),
      })),
      statistics: pageStatistics(page, limit, total),
    };
  }

  async transactions(auth: AuthInfo, page: number, limit: number) {
    const { items, total } = await this.deps.store.ledger.transfersOf(auth.userId, page, limit);
    return {
      items: items.map((t) => ({
        purchaseId: t.purchaseId,
        transactionId: t.transactionId ?? t.id,
        amount: t.amountCents,
        credits: t.credits,
        type: t.kind,
        creator: t.creator && presentPublicUser(t.creator),
        date: t.createdAt.toISOString(),
        dateReview: t.createdAt.toISOString(),
      })),
      statistics: pageStatistics(page, limit, total),
    };
  }

  async unlockPost(auth: AuthInfo, postId: string) {
    const post = await this.deps.visiblePost(auth, postId);
    if (post.creatorId === auth.userId) throw new AppError('CANNOT_PAY_YOURSELF');
    const price = discountedPrice(
      post.price,
      {
        discountStatus: post.discountStatus === 'on' ? 'on' : 'off',
        discountPercent: post.discountPercent,
        discountDateLimit: post.discountDateLimit?.toISOString() ?? null,
      },
      this.now(),
    );
    if (post.visibility === 'free' || price <= 0) throw new AppError('NOT_FOR_SALE');
    return this.spend({
      fanId: auth.userId,
      creatorId: post.creatorId,
      credits: price,
      kind: 'unlock',
      category: 'content',
      key: `unlock:${auth.userId}:${postId}`,
      postId,
      entitle: (r) => r.entitlements.addUnlock(auth.userId, postId),
    });
  }

  /** Charges a paid message's credits and records its unlock (for the messages module). */
  async unlockMessage(userId: string, messageId: string) {
    const message = await this.deps.store.entitlements.paidMessage(messageId);
    if (!message || message.toId !== userId) throw new AppError('NOT_FOUND');
    if (message.price <= 0) throw new AppError('NOT_FOR_SALE');
    return this.spend({
      fanId: userId,
      creatorId: message.fromId,
      credits: message.price,
      kind: 'message_unlock',
      category: 'content',
      key: `message-unlock:${userId}:${messageId}`,
      messageId,
      entitle: (r) => r.entitlements.addMessageUnlock(userId, messageId),
    });
  }

  async tip(
    auth: AuthInfo,
    input: { creator: string; credits: number; post?: string; message?: string },
    live?: LiveSpend,
  ) {
    await this.deps.features.require('tips');
    const creator = await this.creator(auth, input.creator);
    if (input.post) await this.deps.visiblePost(auth, input.post);
    return this.spend({
      fanId: auth.userId,
      creatorId: creator.id,
      credits: input.credits,
      kind: 'tip',
      category: live ? 'live' : 'tips',
      key: live ? live.key('tip', randomUUID()) : `tip:${randomUUID()}`,
      postId: input.post ?? null,
      memo: input.message ?? null,
    });
  }

  async gift(
    auth: AuthInfo,
    input: { creator: string; kind: 'flowers' | 'gift'; post?: string; message?: string },
    live?: LiveSpend,
  ) {
    await this.deps.features.require('giftsAndFlowers');
    const creator = await this.creator(auth, input.creator);
    if (input.post) await this.deps.visiblePost(auth, input.post);
    const flowers = input.kind === 'flowers';
    return this.spend({
      fanId: auth.userId,
      creatorId: creator.id,
      credits: await this.deps.terms.giftCost(input.kind),
      kind: input.kind,
      category: live ? 'live' : flowers ? 'flowers' : 'gifts',
      key: live ? live.key(input.kind, randomUUID()) : `${input.kind}:${randomUUID()}`,
      postId: input.post ?? null,
      memo: input.message ?? null,
    });
  }

  /**
   * A live's ticket, charged once: the ticket row and the ledger key (one per fan and live) both
   * refuse a second charge, so a double click or two tabs pay once.
   */
  async buyLiveTicket(fanId: string, live: { id: string; creatorId: string; price: number }, key: string) {
    if (live.creatorId === fanId) throw new AppError('CANNOT_PAY_YOURSELF');
    if (live.price <= 0) throw new AppError('NOT_FOR_SALE');
    return this.spend({
      fanId,
      creatorId: live.creatorId,
      credits: live.price,
      kind: 'live_ticket',
      category: 'live',
      key,
      entitle: (r) => r.entitlements.addLiveTicket(fanId, live.id),
    });
  }

  private async creator(auth: AuthInfo, handle: string) {
    const creator = await this.deps.findCreator(handle);
    if (!isCreator(creator)) throw new AppError('NOT_FOUND');
    if (creator.id === auth.userId) throw new AppError('CANNOT_PAY_YOURSELF');
    return creator;
  }

  private async spend(s: Spend): Promise<{ success: true; credits: number; charged: number }> {
    const at = this.now();
    const value = s.credits * this.deps.config.creditValueCents;
    const result = await this.deps.store.transaction(async (r) => {
      const balance = await r.ledger.lockWallet(s.fanId);
      if (s.entitle && !(await s.entitle(r))) return { credits: balance, charged: 0 };
      if (balance < s.credits) throw new AppError('INSUFFICIENT_CREDITS');
      const { split, referrerId, availableAt } = await this.deps.terms.splitFor(r, s.creatorId, value, at);
      const row = await r.ledger.post(
        {
          kind: s.kind,
          category: s.category,
          key: s.key,
          userId: s.fanId,
          creatorId: s.creatorId,
          postId: s.postId ?? null,
          messageId: s.messageId ?? null,
          amountCents: value,
          credits: -s.credits,
          memo: s.memo ?? null,
          at,
        },
        spendLegs(s.fanId, s.credits, value, split, {
          creatorId: s.creatorId,
          referrerId,
          availableAt,
        }),
      );
      if (!row) return { credits: balance, charged: 0 };
      return { credits: await r.ledger.changeWallet(s.fanId, -s.credits), charged: s.credits };
    });
    if (result.charged > 0) {
      const fan = await this.deps.store.billing.party(s.fanId);
      await this.deps.notifications
        .notify(s.creatorId, NOTICE[s.kind], {
          actor: fan?.username ?? '',
          amount: s.credits,
          link: s.postId ? `/post/${s.postId}` : `/${fan?.username ?? ''}`,
        })
        .catch(() => undefined);
    }
    return { success: true, ...result };
  }
}
