import type { RouteDeps } from '../../http/route-deps.ts';

export function walletRoutes({ route, services }: RouteDeps): void {
  const wallet = services.wallet;
  route('wallet.get', ({ auth }) => wallet.wallet(auth));
  route('wallet.history', ({ auth, input }) => wallet.history(auth, input.page, input.limit));
  route('user.transactions', ({ auth, input }) => wallet.transactions(auth, input.page, input.limit));
  route('posts.unlock', ({ auth, params }) => wallet.unlockPost(auth, params.id));
  route('messages.unlock', ({ auth, params }) => wallet.unlockMessage(auth.userId, params.id));
  route('tips.send', ({ auth, input }) => wallet.tip(auth, input));
  route('gifts.send', ({ auth, input }) => wallet.gift(auth, input));
}
