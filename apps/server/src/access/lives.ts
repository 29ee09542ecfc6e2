import type { LiveAudience, LiveRefusal } from '@fanverse/contract';
import { isStaff } from './roles.ts';

/** What decides whether a viewer may watch a live (ADR 0015: the rule is written here once). */
export interface LiveViewer {
  userId: string;
  roles: readonly string[];
  /** Active subscriber of the live's creator (`isActiveSubscription`). */
  subscribed: boolean;
  /** Holds a ticket for this live. */
  ticket: boolean;
  /** Banned from this live by its creator. */
  banned: boolean;
}

/**
 * THE live entitlement rule, asked when a viewer opens the live, joins its room, and on every
 * playlist and segment request: the creator and staff always; a banned viewer never; otherwise by
 * the live's audience (subscribers; everyone logged in; ticket holders, and subscribers need a
 * ticket too: a ticketed live is sold to everyone). Answers null when allowed, else the refusal.
 */
export function liveRefusal(
  live: { creatorId: string; audience: LiveAudience; status: string },
  viewer: LiveViewer,
): LiveRefusal | null {
  if (viewer.userId === live.creatorId || isStaff({ roles: viewer.roles })) return null;
  if (live.status !== 'live') return 'ended';
  if (viewer.banned) return 'banned';
  if (live.audience === 'everyone') return null;
  if (live.audience === 'subscribers') return viewer.subscribed ? null : 'subscribe';
  return viewer.ticket ? null : 'ticket';
}
