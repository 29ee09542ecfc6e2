import type { Role } from '@fanverse/contract';
import type { Config } from '../config.ts';
import type { AuthInfo } from '../http/guards.ts';
import type { JobSender } from '../jobs/job.ts';
import type { Mailer } from '../mail/mailer.ts';
import { BillingService } from '../modules/billing/billing.service.ts';
import { PostbackApplier } from '../modules/billing/postback.applier.ts';
import { EarningsService } from '../modules/earnings/earnings.service.ts';
import type { NotificationService } from '../modules/notifications/notification.service.ts';
import type { PostListRow } from '../modules/posts/post.repository.ts';
import type { FeatureGate } from '../modules/settings/platform-settings.ts';
import { CancelLinks } from '../modules/subscriptions/cancel-link.ts';
import { type OfferDeps, OfferService } from '../modules/subscriptions/offer.service.ts';
import { SubscriptionService } from '../modules/subscriptions/subscription.service.ts';
import type { PublicUserRow } from '../modules/users/public-user.presenter.ts';
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
  findCreator(
    handle: string,
  ): Promise<(PublicUserRow & { id: string; username: string; roles: Role[] }) | undefined>;
  /** Sends a chat message as a creator (welcome messages). */
  sendMessage: OfferDeps['sendMessage'];
  media: OfferDeps['media'];
  visiblePost(auth: AuthInfo, postId: string): Promise<PostListRow>;
  notifications: Pick<NotificationService, 'notify'>;
  /** Background work (renewal notices, receipts) goes on the job backbone. */
  jobs: JobSender;
  mailer: Mailer;
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
  /** What mails about money need: the app's name, where links point, the time zone of dates. */
  const mail = {
    mailer: deps.mailer,
    app: deps.config.appName,
    baseUrl: deps.config.publicUrl ?? `http://localhost:${deps.config.port}`,
    timezone: deps.config.timezone,
  };
  const offers = new OfferService({
    store,
    config: money,
    jobs: deps.jobs,
    findCreator: deps.findCreator,
    sendMessage: deps.sendMessage,
    media: deps.media,
    features: deps.features,
    now: deps.now,
  });
  const billing = new BillingService({
    store,
    offers,
    applier: new PostbackApplier(moneyTerms, money),
    provider,
    sandbox,
    config: money,
    publicUrl: deps.config.paymentProvider === 'segpay' ? deps.config.publicUrl : undefined,
    findCreator: deps.findCreator,
    notifications: deps.notifications,
    jobs: deps.jobs,
    mail,
    now: deps.now,
    log: quiet ? undefined : (msg, data) => console.warn(JSON.stringify({ level: 'warn', msg, ...data })),
  });
  return {
    moneyStore: store,
    moneyTerms,
    billing,
    offers,
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
      jobs: deps.jobs,
      mail,
      cancelLinks: new CancelLinks(deps.appSecret),
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
