import type { RouteDeps } from '../../http/route-deps.ts';

export function walletRoutes({ route, services }: RouteDeps): void {
  const wallet = services.wallet;
  route('wallet.get', ({ auth }) => wallet.wallet(auth));
  route('wallet.history', ({ auth, input }) => wallet.history(auth, input.page, input.limit));
  route('user.transactions', ({ auth, input }) => wallet.transactions(auth, input.page, input.limit));
  route('posts.unlock', ({ auth, params }) => wallet.unlockPost(auth, params.id));
  route('messages.unlock', ({ auth, params }) => wallet.unlockMessage(auth.userId, params.id));
  // During a live the live module checks the viewer and shows the support on the stream.
  route('tips.send', ({ auth, input: { live, ...tip } }) =>
    live ? services.lives.support(auth, live, { ...tip, kind: 'tip' }) : wallet.tip(auth, tip),
  );
  route('gifts.send', ({ auth, input: { live, ...gift } }) =>
    live ? services.lives.support(auth, live, gift) : wallet.gift(auth, gift),
  );
}
