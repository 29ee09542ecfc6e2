/**
 * The pages with a server-rendered first view (ADR 0048), as the hydration journey
 * (e2e/tests/hydration.spec.ts) and the screenshots script (scripts/first-view-shots.ts) open them:
 * a visitor's home, then a fan's home, the creator page and the post of the fan's first feed post.
 */
export function firstViewPages(first: { _id: string; user: { user: string } }) {
  return [
    { name: 'home, visitor', slug: 'home-visitor', path: '/', fan: false },
    { name: 'home, fan', slug: 'home-fan', path: '/', fan: true },
    { name: 'creator page', slug: 'creator', path: `/${first.user.user}`, fan: true },
    { name: 'post', slug: 'post', path: `/post/${first._id}`, fan: true },
  ];
}
