import type {
  CreatorProfile,
  HomeResponse,
  Language,
  Post,
  PostsResponse,
  Profile,
} from '@fanverse/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../locales/en/content.json';
import { type FirstViewInput, prepareFirstView, renderFirstView } from './firstView.tsx';

const home: HomeResponse = {
  language: 'en',
  languages: ['en', 'es'],
  name: 'Fanverse',
  appKey: 'fanverse',
  cdn: null,
  adminUser: 'fanverse',
  analytics: null,
  timezone: 'America/Bogota',
  words: {},
  texts: {},
  landing: { title: '', subtitle: '', creators: [] },
  features: {
    devOutbox: false,
    paymentProvider: 'sandbox',
    sandboxControls: false,
    payoutPeriod: 'weekly',
    earningsHoldDays: 7,
    switches: {
      signups: true,
      creatorApplications: true,
      tips: true,
      giftsAndFlowers: true,
      paidMessages: true,
    },
    giftCosts: { flowers: 10, gift: 50 },
    uploadLimits: { imageMb: 20, videoMb: 1024 },
  },
  serverTime: new Date(0).toISOString(),
};

const author = {
  _id: 'id-luna',
  user: 'lunacreator',
  name: 'Luna Rivera',
  avatar: null,
  online: false,
  lastConnection: null,
  verified: true,
};

function post(id: string, fields: Partial<Post> = {}): Post {
  return {
    _id: id,
    kind: 'post',
    user: author,
    creator: author.user,
    message: `Message of ${id}`,
    media: [],
    visibility: 'free',
    price: 0,
    finalPrice: 0,
    discountStatus: 'off',
    discountPercent: 0,
    discountDateLimit: null,
    comments: 0,
    likes: 0,
    liked: false,
    saved: false,
    access: true,
    adminStatus: 'approved',
    reviewReason: null,
    status: 'active',
    publishAt: null,
    date: new Date().toISOString(),
    ...fields,
  };
}

const lockedMedia = {
  _id: 'media-1',
  type: 'image' as const,
  status: 'ready' as const,
  src: null,
  thumb: null,
  poster: null,
  mediaPoster: null,
  location: null,
  blur: '/api/v1/media/media-1/blur?sig=b',
  width: 800,
  height: 600,
  info: null,
  locked: true,
  preview: 0,
  captions: [],
};

function feed(posts: Post[]): PostsResponse {
  return {
    posts,
    statistics: { page: 1, limit: 12, total: posts.length, hasMore: false },
    iSubscriptor: false,
    profile: null,
    suggestions: [],
  } as unknown as PostsResponse;
}

const fanProfile = {
  _id: 'id-fan',
  username: 'fanuser1',
  name: 'Fan One',
  displayName: null,
  about: null,
  location: null,
  birthdate: '1990-01-01',
  country: null,
  email: 'fan@example.com',
  avatar: null,
  cover: null,
  visibleWatermark: false,
  roles: ['user', 'fan'],
  verified: true,
  online: true,
  lastConnection: null,
  language: 'en',
  createdAt: new Date(0).toISOString(),
  notifications: 0,
  counters: {
    documentsByVerify: 0,
    profilesByVerify: 0,
    creatorsByVerify: 0,
    complaintsByVerify: 0,
    messagesUnread: 0,
    notificationsUnread: 0,
    postsByReview: 0,
    storiesByReview: 0,
  },
} as Profile;

const creatorProfile = {
  ...author,
  displayName: null,
  about: 'Sunsets and yoga',
  cover: null,
  isCreator: true,
  subscriptionPrice: 999,
  subscriptionFinalPrice: 999,
  discountStatus: 'off',
  discountPercent: 0,
  discountDateLimit: null,
  counts: { posts: 2, media: 1, likes: 3, subscribers: 4 },
  following: false,
  isMe: false,
} as unknown as CreatorProfile;

function input(url: string, language: Language, fields: Partial<FirstViewInput>): FirstViewInput {
  return {
    url,
    language,
    user: null,
    profile: null,
    app: home,
    queries: [],
    screen: 'mobile',
    ageAccepted: true,
    now: Date.now(),
    ...fields,
  };
}
const signedIn = {
  profile: fanProfile,
  user: {
    _id: 'id-fan',
    id: 'id-fan',
    user: 'fanuser1',
    name: 'Fan One',
    email: 'fan@example.com',
    country: null,
    roles: fanProfile.roles,
    verified: true,
    avatar: null,
    language: 'en' as const,
    subscriptions: [],
  },
};

/** Top-level keys of the catalogues: a rendered "creator.subscribe" would be an untranslated key. */
const KEY_LIKE = new RegExp(`[>"](${Object.keys(en).join('|')}|header|landing|age|feed)\\.[a-zA-Z.]+[<"]`);

beforeAll(async () => {
  await prepareFirstView();
});

describe('the first view (ADR 0048)', () => {
  it('renders the home page for a visitor in each language, four cards at most, with the age notice', () => {
    const posts = Array.from({ length: 6 }, (_, i) => post(`p${i}`));
    const queries = [{ key: ['posts.list', {}], data: feed(posts), infinite: true }];
    const en = renderFirstView(input('/', 'en', { queries, ageAccepted: false }));
    const es = renderFirstView(input('/', 'es', { queries, ageAccepted: false }));
    expect(en).toContain('Skip to content');
    expect(en).toContain('Adults only (18+)');
    expect(es).toContain('Saltar al contenido');
    expect(es).toContain('Solo para adultos (18+)');
    expect(es).not.toContain('Log in');
    expect(en.match(/data-fv-testid="post-card"/g)?.length).toBe(4);
    for (const html of [en, es]) expect(html).not.toMatch(KEY_LIKE);
    expect(renderFirstView(input('/', 'en', { queries }))).not.toContain('data-fv-testid="age-advice"');
  });

  it("renders a fan's feed, a creator page and a post in each language", () => {
    for (const language of ['en', 'es'] as const) {
      const homeFeed = renderFirstView(
        input('/', language, {
          ...signedIn,
          queries: [{ key: ['posts.list', {}], data: feed([post('a')]), infinite: true }],
        }),
      );
      expect(homeFeed).toContain(language === 'en' ? 'Your feed' : 'Tu feed');
      expect(homeFeed).toContain('Message of a');
      const creator = renderFirstView(
        input('/lunacreator', language, {
          ...signedIn,
          queries: [
            { key: ['creator.profile', 'lunacreator'], data: creatorProfile },
            { key: ['posts.list', { creator: 'lunacreator' }], data: feed([post('b')]), infinite: true },
            { key: ['stories.list', 'lunacreator'], data: { stories: [], creator: null, statistics: {} } },
          ],
        }),
      );
      expect(creator).toContain('data-fv-testid="creator-header"');
      expect(creator).toContain('Sunsets and yoga');
      expect(creator).toContain(language === 'en' ? 'Subscribe' : 'Suscribirse');
      expect(creator).toContain('Message of b');
      const single = renderFirstView(
        input('/post/00000000-0000-4000-8000-000000000001', language, {
          ...signedIn,
          queries: [
            {
              key: ['posts.list', { post: '00000000-0000-4000-8000-000000000001' }],
              data: feed([post('00000000-0000-4000-8000-000000000001')]),
              infinite: true,
            },
          ],
        }),
      );
      expect(single).toContain('data-fv-testid="post-page"');
      expect(single).toContain(language === 'en' ? 'Share' : 'Compartir');
      for (const html of [homeFeed, creator, single]) expect(html).not.toMatch(KEY_LIKE);
    }
  });

  it("shows a locked post's blurred preview and price, never its media", () => {
    const locked = post('locked', {
      visibility: 'ppv',
      price: 40,
      finalPrice: 40,
      access: false,
      media: [lockedMedia],
    });
    const html = renderFirstView(
      input('/', 'es', {
        ...signedIn,
        queries: [{ key: ['posts.list', {}], data: feed([locked]), infinite: true }],
      }),
    );
    expect(html).toContain('Desbloquear por 40 créditos');
    expect(html).not.toContain('/api/v1/media/media-1/web');
    expect(html).not.toMatch(/<video/);
  });
});
