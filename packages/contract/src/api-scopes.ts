import type { EndpointName } from './api.ts';
import type { ApiScope } from './http/developer.ts';

/**
 * The one table of what a personal API token may call: endpoint → the scope it needs. An endpoint
 * missing here is never reachable with an API token, whatever its scopes: signing in and every
 * security setting (passwords, two-step sign-in, passkeys, sessions, the tokens themselves),
 * anything that moves money (checkout, unlocks, tips, gifts, subscriptions, payouts), account
 * deletion, and every staff endpoint. A token also never carries staff roles (ADR 0034).
 */
export const TOKEN_SCOPES = {
  'user.profile': 'read:profile',
  'user.following': 'read:profile',
  'user.blocks': 'read:profile',
  'creator.tags': 'read:profile',
  'creator.applyState': 'read:profile',
  'user.updateProfile': 'write:profile',
  'user.follow': 'write:profile',
  'creator.setTags': 'write:profile',

  'posts.list': 'read:posts',
  'posts.scheduled': 'read:posts',
  'posts.statistics': 'read:posts',
  'comments.list': 'read:posts',
  'stories.list': 'read:posts',
  'likes.list': 'read:posts',
  'creator.search': 'read:posts',
  'creator.profile': 'read:posts',
  'user.preview': 'read:posts',
  'search.suggest': 'read:posts',
  'search.posts': 'read:posts',
  'explore.sections': 'read:posts',
  'directory.creators': 'read:posts',
  'directory.users': 'read:posts',
  'gallery.get': 'read:posts',
  'posts.create': 'write:posts',
  'posts.update': 'write:posts',
  'posts.delete': 'write:posts',
  'posts.schedule': 'write:posts',
  'posts.like': 'write:posts',
  'posts.save': 'write:posts',
  'comments.create': 'write:posts',

  'message.contacts': 'read:messages',
  'message.conversation': 'read:messages',
  'message.send': 'write:messages',

  'notifications.list': 'read:notifications',

  'wallet.get': 'read:wallet',
  'wallet.history': 'read:wallet',
  'user.transactions': 'read:wallet',
  'subscriptions.mine': 'read:wallet',

  'creator.statistics': 'read:statistics',
  'creator.earnings': 'read:statistics',
  'creator.subscribers': 'read:statistics',
} as const satisfies { readonly [N in EndpointName]?: ApiScope };

/** The scope an API token needs for an endpoint; undefined: no token may call it. */
export function tokenScopeOf(name: EndpointName): ApiScope | undefined {
  return (TOKEN_SCOPES as Partial<Record<EndpointName, ApiScope>>)[name];
}
