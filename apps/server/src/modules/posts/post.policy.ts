import type { AuthInfo } from '../../http/guards.ts';
import type { PostListRow } from './post.repository.ts';

/** Admins, coordinators and super administrators moderate content. */
export const isModerator = (auth: AuthInfo | null): boolean =>
  !!auth && auth.roles.some((r) => r === 'admin' || r === 'super' || r === 'coord');

export const isCreator = (auth: AuthInfo | null): boolean => !!auth && auth.roles.includes('creator');

export const isOwner = (auth: AuthInfo | null, post: { creatorId: string }): boolean =>
  !!auth && auth.userId === post.creatorId;

/** Who may see that a post exists: approved and active, or its creator, or a moderator. */
export function canSeePost(auth: AuthInfo | null, post: PostListRow): boolean {
  if (isOwner(auth, post) || isModerator(auth)) return post.status === 'active' || isModerator(auth);
  return post.status === 'active' && post.adminStatus === 'approved';
}

/**
 * Who may see a post's media (spec §4/§6 and issue 4): the creator, moderators, and fans entitled
 * to it — free posts to everyone logged in, subscriber posts to active subscribers, pay-per-view
 * posts to those who unlocked them. Everyone else gets the blurred preview only.
 */
export function canSeeMedia(auth: AuthInfo | null, post: PostListRow): boolean {
  if (!auth) return false;
  if (isOwner(auth, post) || isModerator(auth)) return true;
  if (post.status !== 'active' || post.adminStatus !== 'approved') return false;
  switch (post.visibility) {
    case 'free':
      return true;
    case 'subscribers':
      return post.subscribed || post.unlocked;
    case 'ppv':
      return post.unlocked;
    default:
      return false;
  }
}
