import type { HomeResponse, Language } from '@fanverse/contract';
import { LANGUAGES } from '@fanverse/contract';
import type { Config } from '../../config.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { TEXTS, WORDS } from './home.locale.ts';

export interface HomeDeps {
  users: UserRepository;
  config: Pick<Config, 'appName' | 'appKey' | 'mediaCdnUrl' | 'timezone' | 'devOutbox' | 'paymentProvider'>;
}

/** Start-up data of spec §4. */
export class HomeService {
  constructor(private readonly deps: HomeDeps) {}

  async startup(lang: Language): Promise<HomeResponse> {
    const { config } = this.deps;
    const creators = await this.deps.users.landingCreators(8);
    const texts = TEXTS[lang];
    return {
      language: lang,
      languages: [...LANGUAGES],
      name: config.appName,
      appKey: config.appKey,
      cdn: config.mediaCdnUrl ?? null,
      adminUser: config.appKey,
      timezone: config.timezone,
      words: WORDS[lang],
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
      features: { devOutbox: config.devOutbox, paymentProvider: config.paymentProvider },
      serverTime: new Date().toISOString(),
    };
  }
}
