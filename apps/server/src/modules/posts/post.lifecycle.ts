import type { AdminStatus } from '@fanverse/contract';
import { AppError } from '../../http/app-error.ts';

/**
 * The lifecycle of a post, in one place (ADR 0016).
 *
 *   draft ──submit──▶ processing ──files ready──▶ in_review ──▶ approved ──time──▶ published
 *     │                   │                          │              ▲
 *     └──submit (text)────┼──────────────────────────┘              └── rejected ◀─┘ (moderators
 *                         └──a file failed──▶ failed ──retry (same post)──▶ processing   may revise)
 *
 * `draft` lives in the editor only. The other states are stored in `posts.admin_status`
 * (`in_review` as `new` or `pending`); `published` is `approved` once `publish_at` (if any) has
 * passed: feeds compare `publish_at` with the clock, so nothing shows early even if the
 * scheduled-publication job runs late. Each transition names who may make it.
 */
export const POST_STATES = [
  'draft',
  'processing',
  'failed',
  'in_review',
  'approved',
  'rejected',
  'published',
] as const;
export type PostState = (typeof POST_STATES)[number];
export type PostActor = 'creator' | 'moderator' | 'system';

export interface Transition {
  from: PostState;
  to: PostState;
  by: PostActor;
  /** What happens, for the docs and test names. */
  event: string;
}

export const TRANSITIONS: readonly Transition[] = [
  { from: 'draft', to: 'processing', by: 'creator', event: 'submit with files' },
  { from: 'draft', to: 'in_review', by: 'creator', event: 'submit text only' },
  { from: 'processing', to: 'in_review', by: 'system', event: 'every file processed' },
  { from: 'processing', to: 'failed', by: 'system', event: 'a file could not be processed' },
  { from: 'failed', to: 'processing', by: 'creator', event: 'retry with new files (same post)' },
  { from: 'failed', to: 'in_review', by: 'creator', event: 'retry without the failed files' },
  { from: 'in_review', to: 'approved', by: 'moderator', event: 'approve' },
  { from: 'in_review', to: 'rejected', by: 'moderator', event: 'reject' },
  { from: 'approved', to: 'rejected', by: 'moderator', event: 'revise to rejected' },
  { from: 'rejected', to: 'approved', by: 'moderator', event: 'revise to approved' },
  { from: 'approved', to: 'in_review', by: 'moderator', event: 'send back to review' },
  { from: 'rejected', to: 'in_review', by: 'moderator', event: 'send back to review' },
  { from: 'published', to: 'rejected', by: 'moderator', event: 'take down' },
  { from: 'published', to: 'in_review', by: 'moderator', event: 'send back to review' },
  { from: 'approved', to: 'published', by: 'system', event: 'publication time reached' },
  { from: 'approved', to: 'published', by: 'creator', event: 'publish a scheduled post now' },
  // An edit is reviewed again before fans see it (with new files it is processed first).
  ...(['in_review', 'approved', 'rejected', 'published'] as const).flatMap((from) => [
    { from, to: 'in_review' as const, by: 'creator' as const, event: 'edit' },
    { from, to: 'processing' as const, by: 'creator' as const, event: 'edit with new files' },
  ]),
];

export function canTransition(from: PostState, to: PostState, by: PostActor): boolean {
  return TRANSITIONS.some((t) => t.from === from && t.to === to && t.by === by);
}

/** Refuses a transition the table does not list (409 POST_STATE_CONFLICT). */
export function assertTransition(from: PostState, to: PostState, by: PostActor): void {
  if (!canTransition(from, to, by)) throw new AppError('POST_STATE_CONFLICT');
}

/** The state of a stored post at `now`. */
export function stateOf(post: { adminStatus: string; publishAt: Date | null }, now: Date): PostState {
  switch (post.adminStatus as AdminStatus) {
    case 'processing':
      return 'processing';
    case 'failed':
      return 'failed';
    case 'approved':
      return post.publishAt && post.publishAt > now ? 'approved' : 'published';
    case 'rejected':
      return 'rejected';
    default:
      return 'in_review';
  }
}

/** What `admin_status` stores for a state (`in_review` keeps a moderator's `pending`). */
export function storedStatus(
  state: Exclude<PostState, 'draft'>,
  review: 'new' | 'pending' = 'new',
): AdminStatus {
  switch (state) {
    case 'in_review':
      return review;
    case 'published':
      return 'approved';
    default:
      return state;
  }
}
