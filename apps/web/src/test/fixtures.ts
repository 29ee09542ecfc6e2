/**
 * Answers of the API as the web app's tests give them to the app (the router's tests in jsdom and
 * the server-render tests of the first view): the start-up answer, a signed-in user's profile and
 * a creator's profile, posts and a page of them. Only tests import this file.
 */
import type { CreatorProfile, HomeResponse, Post, PostsResponse, Profile, Role } from '@fanverse/contract';

/** `GET /?view=home`: the start-up answer of an English site with every switch on. */
export const startupAnswer: HomeResponse = {
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
  landing: { title: 'Title', subtitle: 'Subtitle', creators: [] },
  features: {
    devOutbox: true,
    paymentProvider: 'sandbox',
    sandboxControls: true,
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

/** The counters of a profile with nothing waiting. */
export const ZERO_COUNTERS: Profile['counters'] = {
  documentsByVerify: 0,
  profilesByVerify: 0,
  creatorsByVerify: 0,
  complaintsByVerify: 0,
  messagesUnread: 0,
  notificationsUnread: 0,
  postsByReview: 0,
  storiesByReview: 0,
};

/** `GET /user/profile` of a verified, online English user with nothing waiting. */
export function profileAnswer(user: {
  id: string;
  username: string;
  name: string;
  email: string;
  roles: Role[];
}): Profile {
  return {
    _id: user.id,
    username: user.username,
    name: user.name,
    displayName: null,
    about: null,
    location: null,
    birthdate: '1990-01-01',
    country: null,
    email: user.email,
    avatar: null,
    cover: null,
    visibleWatermark: false,
    roles: user.roles,
    verified: true,
    online: true,
    lastConnection: null,
    language: 'en',
    createdAt: new Date(0).toISOString(),
    notifications: 0,
    counters: ZERO_COUNTERS,
  };
}

/** `GET /creator/profile/{handle}` of a verified creator the viewer neither follows nor is. */
export function creatorProfileAnswer(
  creator: { id: string; handle: string; name: string },
  fields: Partial<CreatorProfile> = {},
): CreatorProfile {
  return {
    _id: creator.id,
    user: creator.handle,
    name: creator.name,
    displayName: null,
    about: null,
    avatar: null,
    cover: null,
    online: false,
    lastConnection: null,
    verified: true,
    isCreator: true,
    subscriptionPrice: 999,
    subscriptionFinalPrice: 999,
    discountStatus: 'off',
    discountPercent: 0,
    discountDateLimit: null,
    counts: { posts: 0, media: 0, likes: 0, subscribers: 0 },
    following: false,
    isMe: false,
    ...fields,
  } as CreatorProfile;
}

/** The author of the posts below. */
export const author = {
  _id: 'id-luna',
  user: 'lunacreator',
  name: 'Luna Rivera',
  avatar: null,
  online: false,
  lastConnection: null,
  verified: true,
};

/** An approved free post by `author`, with `fields` changed. */
export function post(id: string, fields: Partial<Post> = {}): Post {
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

/** A first (and last) page of posts.list. */
export function feed(posts: Post[]): PostsResponse {
  return {
    posts,
    statistics: { page: 1, limit: 12, total: posts.length, hasMore: false },
    iSubscriptor: false,
    profile: null,
    suggestions: [],
  } as unknown as PostsResponse;
}
