/** Business constants of spec §9, shared by server and web. */

export const APP_DEFAULT_NAME = 'Fanverse';
export const BRAND_COLOR = '#bd0909';

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Roles of spec §6. */
export const ROLES = ['super', 'admin', 'coord', 'user', 'creator', 'fan', 'developer'] as const;
export type Role = (typeof ROLES)[number];
/** Roles that may use the admin area: the staff who moderate content (spec §6). */
export const ADMIN_ROLES: readonly Role[] = ['super', 'admin', 'coord'];
/** Staff who may also verify creators and decide money matters (coordinators may not). */
export const ADMINISTRATOR_ROLES: readonly Role[] = ['super', 'admin'];

export const LIMITS = {
  usernameMin: 6,
  usernameMax: 20,
  nameMax: 80,
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 128,
  postCharacters: 280,
  messageLength: 1024,
  minimumAge: 18,
  verificationPhotos: 3,
  aboutMax: 1000,
  locationMax: 120,
  displayNameMax: 60,
  resetCodeLength: 6,
} as const;

/** Categories a creator may choose for their page (Explore filters by them); at most CATEGORY_MAX. */
export const CATEGORY_TAGS = [
  'fitness',
  'yoga',
  'travel',
  'photography',
  'art',
  'music',
  'dance',
  'cooking',
  'fashion',
  'beauty',
  'gaming',
  'comedy',
  'lifestyle',
  'cosplay',
  'education',
  'sports',
] as const;
export type CategoryTag = (typeof CATEGORY_TAGS)[number];
export const CATEGORY_MAX = 3;

export const PAGE_LIMITS = {
  comments: 24,
  contacts: 24,
  messages: 24,
  notifications: 10,
  subscribers: 10,
  search: 30,
  vault: 24,
} as const;

export const TIMINGS = {
  connectionReportMs: 60_000,
  markReadDelayMs: 1_000,
  loadedDelayMs: 100,
  modalAnimationMs: 250,
  appTransitionMs: 300,
  chunkTimeoutMs: 120_000,
  specialUsernameDialogMs: 6_000,
} as const;

export const SWIPE = { minDistancePx: 50, minVelocityPxPerMs: 0.45 } as const;
export const INFINITE_SCROLL_THRESHOLD_PX = 200;

/** Screen classes of spec §4 (decision recorded in the checklist). */
export const SCREEN_CLASSES = [
  { name: 'mobile', min: 0, max: 767 },
  { name: 'tablet', min: 768, max: 1024 },
  { name: 'desktop', min: 1025, max: 1920 },
  { name: 'tv', min: 1921, max: Number.POSITIVE_INFINITY },
] as const;
export type ScreenClass = (typeof SCREEN_CLASSES)[number]['name'];

export function screenClassOf(width: number): ScreenClass {
  for (const c of SCREEN_CLASSES) if (width >= c.min && width <= c.max) return c.name;
  return 'desktop';
}

/** The header name that carries the session token (spec §7). */
export const TOKEN_HEADER = 'a1sledom';
/** The header name that carries the interface language (spec §7). */
export const LANGUAGE_HEADER = 'ilang';

/** Words the user must type to delete their account (spec §5). */
export const DELETE_ACCOUNT_WORDS: Record<Language, string> = { en: 'delete', es: 'eliminar' };

/** Gifts a fan can send (POST /money/gift), kept apart from the schemas for the web app's first load. */
export const GIFT_KINDS = ['flowers', 'gift'] as const;

/** Reasons of a report (POST /posts/:id/report, complaints). */
export const REPORT_REASONS = [
  'fake_info',
  'violent_content',
  'fraud',
  'spam',
  'hate_speech',
  'related_a_minor',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
