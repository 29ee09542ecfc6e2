import type { Comment } from '@fanverse/contract';
import { pageStatistics } from '@fanverse/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { type RateLimiter, rateLimited } from '../../lib/rate-limiter.ts';
import type { RealtimePublisher } from '../../realtime/publisher.ts';
import type { NotificationService } from '../notifications/notification.service.ts';
import type { PostService } from '../posts/post.service.ts';
import { presentPublicUser } from '../users/public-user.presenter.ts';
import type { CommentRepository, CommentWithAuthor } from './comment.repository.ts';
import { MAX_COMMENT_DEPTH } from './comment-thread.ts';

function present(row: CommentWithAuthor, replies: Comment[] = []): Comment {
  return {
    _id: row.id,
    post: { _id: row.postId },
    user: presentPublicUser(row.author),
    message: row.message,
    deep: row.deep,
    parent: row.parentId,
    date: row.createdAt.toISOString(),
    replies,
  };
}

/** Threaded comments with live delivery to everyone who can see the post. */
export class CommentService {
  constructor(
    private readonly repo: CommentRepository,
    private readonly posts: PostService,
    private readonly notifications: NotificationService,
    private readonly publisher: RealtimePublisher,
    /** Blocked pairs can't comment on each other's posts or reply to each other. */
    private readonly blocks?: { assertNotBlocked(a: string, b: string): Promise<void> },
    /** Comments one account may write per minute (RATE_COMMENT_PER_ACCOUNT). */
    private readonly rate?: { limiter: RateLimiter; perMinute: number },
  ) {}

  async list(auth: AuthInfo, postId: string, page: number, limit: number) {
    await this.posts.visible(auth, postId);
    const { rows, total } = await this.repo.topLevel(postId, page, limit);
    const replies = await this.repo.replies(
      postId,
      rows.map((r) => r.id),
    );
    const byRoot = new Map<string, Comment[]>();
    for (const r of replies) {
      const list = byRoot.get(r.rootId!) ?? [];
      list.push(present(r));
      byRoot.set(r.rootId!, list);
    }
    return {
      comments: rows.map((r) => present(r, byRoot.get(r.id) ?? [])),
      total,
      postId,
      statistics: pageStatistics(page, limit, total),
    };
  }

  async create(auth: AuthInfo, input: { post: string; message: string; parent?: string }) {
    if (this.rate) {
      const state = await this.rate.limiter.hit(`comment:${auth.userId}`, 60);
      if (state.count > this.rate.perMinute) throw rateLimited('COMMENT_RATE_LIMITED', state.resetInMs);
    }
    const post = await this.posts.visible(auth, input.post);
    let parent: { id: string; rootId: string | null; deep: number; userId: string } | undefined;
    if (input.parent) {
      parent = await this.repo.find(input.parent);
      if (!parent || (parent as { postId?: string }).postId !== input.post)
        throw new AppError('MISSING_DATA');
    }
    await this.blocks?.assertNotBlocked(auth.userId, post.creatorId);
    if (parent) await this.blocks?.assertNotBlocked(auth.userId, parent.userId);
    const row = await this.repo.create({
      postId: input.post,
      userId: auth.userId,
      message: input.message,
      parentId: parent?.id ?? null,
      rootId: parent ? (parent.rootId ?? parent.id) : null,
      deep: parent ? Math.min(parent.deep + 1, MAX_COMMENT_DEPTH) : 0,
    });
    const comment = present(row);
    this.posts.countsChanged();
    // Live delivery: whoever has the post's comments open, its creator and the people in the thread.
    const audience = [...new Set([post.creatorId, auth.userId, ...(parent ? [parent.userId] : [])])];
    const total = await this.repo.countForPost(input.post);
    this.publisher.toPost(input.post, audience, 'comment', { postId: input.post, comment, comments: total });
    const text = input.message.slice(0, 80);
    if (parent && parent.userId !== auth.userId) {
      await this.notifications.notify(parent.userId, 'reply', {
        link: `/post/${input.post}?comments=1`,
        postId: input.post,
        actor: auth.username,
        text,
      });
    }
    if (post.creatorId !== auth.userId && post.creatorId !== parent?.userId) {
      await this.notifications.notify(post.creatorId, 'comment', {
        link: `/post/${input.post}?comments=1`,
        postId: input.post,
        actor: auth.username,
        text,
      });
    }
    return comment;
  }
}
