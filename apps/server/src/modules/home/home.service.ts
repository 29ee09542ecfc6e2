import type { HomeResponse, Language, PlatformSettingsResponse } from '@fanverse/contract';
import { LANGUAGES } from '@fanverse/contract';
import type { Config } from '../../config.ts';
import { flatSection } from '../../i18n/i18n.ts';
import { CachedValue } from '../../lib/cached-value.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { UserRepository } from '../users/user.repository.ts';

export interface HomeDeps {
  users: UserRepository;
  config: Pick<
    Config,
    | 'appName'
    | 'appKey'
    | 'mediaCdnUrl'
    | 'timezone'
    | 'devOutbox'
    | 'paymentProvider'
    | 'money'
    | 'media'
    | 'analytics'
  >;
  settings: Pick<SettingsService, 'current' | 'currentNow'>;
}

/** Landing creators change rarely; every start-up call re-reading them would cost a query each. */
const LANDING_TTL_MS = 30_000;

type LandingCreators = Awaited<ReturnType<UserRepository['landingCreators']>>;

/** Start-up data of spec §4. */
export class HomeService {
  private readonly landing: CachedValue<LandingCreators>;
  /**
   * The answer last built per language, with what it was built from: it is the same object until
   * the landing creators, the settings or the second (`serverTime`) change, so the route sends the
   * JSON and tag it made of it (defineRoute `shared`) instead of serializing every call.
   */
  private readonly built = new Map<
    Language,
    { creators: LandingCreators; settings: PlatformSettingsResponse; second: number; answer: HomeResponse }
  >();
  constructor(private readonly deps: HomeDeps) {
    this.landing = new CachedValue(LANDING_TTL_MS, () => deps.users.landingCreators(8));
  }

  async startup(lang: Language): Promise<HomeResponse> {
    // Both are nearly always loaded already: taken without waiting, else loaded.
    const kept = this.landing.peek();
    const settingsNow = this.deps.settings.currentNow();
    const [creators, settings] =
      kept && settingsNow
        ? [kept.value, settingsNow]
        : await Promise.all([this.landing.get(), this.deps.settings.current()]);
    const second = Math.floor(Date.now() / 1000);
    const last = this.built.get(lang);
    if (last && last.creators === creators && last.settings === settings && last.second === second)
      return last.answer;
    const answer = this.answer(lang, creators, settings, new Date(second * 1000));
    this.built.set(lang, { creators, settings, second, answer });
    return answer;
  }

  private answer(
    lang: Language,
    creators: LandingCreators,
    settings: PlatformSettingsResponse,
    serverTime: Date,
  ): HomeResponse {
    const { config } = this.deps;
    const texts = flatSection(lang, 'texts');
    return {
      language: lang,
      languages: [...LANGUAGES],
      name: config.appName,
      appKey: config.appKey,
      cdn: config.mediaCdnUrl ?? null,
      adminUser: config.appKey,
      analytics: config.analytics,
      timezone: config.timezone,
      words: flatSection(lang, 'words'),
      texts,
      landing: {
        title: texts['landing.title'] ?? '',
        subtitle: texts['landing.subtitle'] ?? '',
        creators: creators.map((c) => ({
          user: c.username,
          name: c.displayName ?? c.name,
          avatar: c.avatar,
        })),
      },
      features: {
        devOutbox: config.devOutbox,
        paymentProvider: config.paymentProvider,
        sandboxControls: config.money.sandboxControls,
        payoutPeriod: settings.payoutPeriod,
        earningsHoldDays: settings.holdDays,
        switches: settings.features,
        giftCosts: settings.giftCosts,
        uploadLimits: {
          imageMb: Math.floor(config.media.maxImageBytes / 1048576),
          videoMb: Math.floor(config.media.maxVideoBytes / 1048576),
        },
      },
      // To the second: the answer is built once a second at most.
      serverTime: serverTime.toISOString(),
    };
  }
}
