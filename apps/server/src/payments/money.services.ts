import type { Role } from '@fanverse/contract';
import type { Config } from '../config.ts';
import type { AuthInfo } from '../http/guards.ts';
import { BillingService } from '../modules/billing/billing.service.ts';
import { PostbackApplier } from '../modules/billing/postback.applier.ts';
import { EarningsService } from '../modules/earnings/earnings.service.ts';
import type { NotificationService } from '../modules/notifications/notification.service.ts';
import type { PostListRow } from '../modules/posts/post.repository.ts';
import type { FeatureGate } from '../modules/settings/platform-settings.ts';
import { SubscriptionService } from '../modules/subscriptions/subscription.service.ts';
import type { MoneyStore } from '../modules/wallet/money.unit.ts';
import type { MoneyTerms } from '../modules/wallet/terms.service.ts';
import { WalletService } from '../modules/wallet/wallet.service.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { SandboxProvider } from './sandbox.provider.ts';
import { HttpSegpaySrsClient, SegpayProvider, type SegpaySrsClient } from './segpay.provider.ts';

export interface MoneyServiceDeps {
  store: MoneyStore;
  terms: MoneyTerms;
  config: Config;
  /** Key of sandbox payment links, shared by every server copy (lib/secret.ts). */
  appSecret: string;
  /** Feature switches (tips, flowers and gifts). */
  features: FeatureGate;
  findCreator(handle: string): Promise<{ id: string; username: string; roles: Role[] } | undefined>;
  visiblePost(auth: AuthInfo, postId: string): Promise<PostListRow>;
  notifications: Pick<NotificationService, 'notify'>;
  /** SegPay's SRS client (tests inject a fake; default: HTTP). */
  segpaySrs?: SegpaySrsClient;
  now?: () => Date;
}

/** The money domain's services (issue 6), wired once and spread into the composition root. */
export function buildMoneyServices(deps: MoneyServiceDeps) {
  const money = deps.config.money;
  const { store, terms: moneyTerms } = deps;
  const sandbox = new SandboxProvider(deps.appSecret);
  const provider: PaymentProvider =
    deps.config.paymentProvider === 'segpay'
      ? new SegpayProvider(money.segpay, deps.segpaySrs ?? new HttpSegpaySrsClient(money.segpay))
      : sandbox;
  const quiet = deps.config.logLevel === 'silent';
  const billing = new BillingService({
    store,
    applier: new PostbackApplier(moneyTerms, money),
    provider,
    sandbox,
    config: money,
    publicUrl: deps.config.paymentProvider === 'segpay' ? deps.config.publicUrl : undefined,
    findCreator: deps.findCreator,
    notifications: deps.notifications,
    now: deps.now,
    log: quiet ? undefined : (msg, data) => console.warn(JSON.stringify({ level: 'warn', msg, ...data })),
  });
  return {
    moneyStore: store,
    moneyTerms,
    billing,
    wallet: new WalletService({
      store,
      terms: moneyTerms,
      features: deps.features,
      config: money,
      visiblePost: deps.visiblePost,
      findCreator: deps.findCreator,
      notifications: deps.notifications,
      now: deps.now,
    }),
    subscriptions: new SubscriptionService({
      store,
      config: money,
      findCreator: deps.findCreator,
      checkout: (auth, handle) => billing.checkoutSubscription(auth, handle, 'en'),
      notifications: deps.notifications,
      now: deps.now,
    }),
    earnings: new EarningsService({
      store,
      config: money,
      terms: moneyTerms,
      notifications: deps.notifications,
      timezone: deps.config.timezone,
      now: deps.now,
    }),
  };
}
