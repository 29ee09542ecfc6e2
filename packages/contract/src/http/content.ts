import { z } from 'zod';
import { CATEGORY_MAX, CATEGORY_TAGS, LIMITS, PAGE_LIMITS, REPORT_REASONS } from '../constants.ts';
import { pageStatisticsSchema } from '../paging.ts';

/** Review states of spec §4 (rejected is shown as "Disapproved"). */
/**
 * A post's stored lifecycle state (see the server's post.lifecycle.ts): `processing` while its files
 * are processed, `failed` when one could not be, `new`/`pending` waiting for review, then `approved`
 * (published at `publishAt`, or at once) or `rejected`.
 */
export const ADMIN_STATUSES = ['new', 'pending', 'approved', 'rejected', 'processing', 'failed'] as const;
/** What a moderator may set. */
export const REVIEW_DECISIONS = ['new', 'pending', 'approved', 'rejected'] as const;
export type AdminStatus = (typeof ADMIN_STATUSES)[number];
export const VISIBILITIES = ['free', 'subscribers', 'ppv'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const POST_KINDS = ['post', 'story'] as const;
export type PostKind = (typeof POST_KINDS)[number];
/** Whether a post still exists (its review is `AdminStatus`). */
export const POST_STATUSES = ['active', 'deleted'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const MEDIA_STATUSES = ['processing', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** Accepted upload types (spec §5), by MIME type as detected from the file's content. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export const VIDEO_TYPES = [
  'video/mpeg',
  'video/mp4',
  'video/x-msvideo',
  'video/quicktime',
  'video/x-ms-wmv',
  'video/x-flv',
  'video/3gpp',
  'video/3gpp2',
  'video/x-matroska',
  'video/webm',
  'video/ogg',
] as const;
export const UPLOAD_EXTENSIONS = [
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'mpg',
  'mpeg',
  'mp4',
  'avi',
  'mov',
  'qt',
  'wmv',
  'flv',
  '3gp',
  '3gpp',
  '3g2',
  '3gpp2',
  'mkv',
  'webm',
  'ogg',
  'ogv',
] as const;

export const mediaInfoSchema = z.object({
  streams: z.array(
    z.object({
      codec_type: z.string(),
      codec_name: z.string().optional(),
      width: z.number().optional(),
      height: z.number().optional(),
    }),
  ),
  format: z.object({ duration: z.number().nullable() }),
});

/** A media item as a viewer sees it: without access, `src`, `location` and `thumb` are null. */
export const mediaSchema = z.object({
  _id: z.string(),
  type: z.enum(['image', 'video']),
  status: z.enum(MEDIA_STATUSES),
  src: z.string().nullable(),
  thumb: z.string().nullable(),
  poster: z.string().nullable(),
  mediaPoster: z.string().nullable(),
  location: z.string().nullable(),
  /** Blurred preview, shown to everyone. */
  blur: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  info: mediaInfoSchema.nullable(),
  locked: z.boolean(),
  /** Videos: seconds of free preview a viewer without access may play (`media.play`); 0 none. */
  preview: z.number().int().nonnegative(),
  /** Videos: languages of the creator's captions tracks (the tracks themselves: `media.play`). */
  captions: z.array(z.enum(['en', 'es', 'other'])),
});
export type Media = z.infer<typeof mediaSchema>;

/** Languages a video's captions track may be in (one track per language). */
export const CAPTION_LANGUAGES = ['en', 'es', 'other'] as const;
export type CaptionLanguage = (typeof CAPTION_LANGUAGES)[number];
/** Largest WebVTT captions file, bytes (a feature film's subtitles are ~150 KB). */
export const MAX_CAPTIONS_BYTES = 512 * 1024;

/**
 * A captions track for one of the caller's videos (ADR 0037): the WebVTT file's text, read by the
 * client, and its name (for the error message). The server parses it; a non-WebVTT file is
 * FILE_NOT_SUPPORTED, a larger one than MAX_CAPTIONS_BYTES FILE_TOO_LARGE.
 */
export const captionsRequestSchema = z.object({
  language: z.enum(CAPTION_LANGUAGES, { error: 'invalid' }),
  name: z.string().trim().min(1, 'required').max(255, 'tooLong'),
  // Checked in bytes by the server with a clear error; this only bounds the request.
  text: z.string().max(MAX_CAPTIONS_BYTES * 2, 'tooLong'),
});
export type CaptionsRequest = z.input<typeof captionsRequestSchema>;
export const captionsParamsSchema = z.object({
  id: z.string().uuid('NOT_FOUND'),
  language: z.enum(CAPTION_LANGUAGES, { error: 'NOT_FOUND' }),
});
export const captionsResponseSchema = z.object({
  success: z.literal(true),
  /** The video's captions languages after the change. */
  captions: z.array(z.enum(CAPTION_LANGUAGES)),
});

/** Free preview lengths a creator may choose for a post's videos, seconds (0: none). */
export const PREVIEW_SECONDS = [0, 5, 10, 15, 30] as const;

/**
 * How an entitled viewer plays one video (`media.play`): a signed, short-lived HLS master playlist
 * bound to the caller's session (segments AES-128 encrypted; the key URL checks entitlement on
 * every request), the faststart MP4 fallback of short clips, the poster, the seek thumbnails.
 */
export const videoPlaySchema = z.object({
  _id: z.string(),
  hls: z.string().nullable(),
  mp4: z.string().nullable(),
  poster: z.string().nullable(),
  /** WebVTT of seek thumbnails: cues whose text is `spriteUrl#xywh=x,y,w,h`. */
  thumbnails: z.string().nullable(),
  /**
   * The creator's captions tracks: signed, session-bound WebVTT URLs for a `<track>` element,
   * checked like the key (entitlement on every request). None with a free preview only.
   */
  captions: z.array(z.object({ language: z.enum(CAPTION_LANGUAGES), url: z.string() })),
  duration: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  renditions: z.array(z.object({ name: z.string(), width: z.number(), height: z.number() })),
  /** Seconds the playlist and key URLs stay valid; ask again after. */
  expiresIn: z.number(),
  /**
   * True when only the free preview is granted (a viewer who may see the post but not its media):
   * `hls` is the preview's own playlist (first `duration` seconds, its own key), never the rest.
   */
  preview: z.boolean(),
});
export type VideoPlay = z.infer<typeof videoPlaySchema>;

export const publicUserSchema = z.object({
  _id: z.string(),
  user: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  online: z.boolean(),
  lastConnection: z.string().nullable(),
  verified: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const postSchema = z.object({
  _id: z.string(),
  kind: z.enum(POST_KINDS),
  user: publicUserSchema,
  creator: z.string(),
  message: z.string(),
  media: z.array(mediaSchema),
  visibility: z.enum(VISIBILITIES),
  price: z.number().int(),
  /** Price after an active discount. */
  finalPrice: z.number().int(),
  discountStatus: z.enum(['on', 'off']),
  discountPercent: z.number().int(),
  discountDateLimit: z.string().nullable(),
  comments: z.number().int(),
  likes: z.number().int(),
  liked: z.boolean(),
  saved: z.boolean(),
  /** The viewer may see the media. */
  access: z.boolean(),
  adminStatus: z.enum(ADMIN_STATUSES),
  reviewReason: z.string().nullable(),
  status: z.enum(POST_STATUSES),
  /** Scheduled publication (ISO); null publishes as soon as it is approved. */
  publishAt: z.string().nullable(),
  date: z.string(),
});
export type Post = z.infer<typeof postSchema>;

export const creatorProfileSchema = z.object({
  _id: z.string(),
  user: z.string(),
  name: z.string(),
  displayName: z.string().nullable(),
  about: z.string().nullable(),
  avatar: z.string().nullable(),
  cover: z.string().nullable(),
  online: z.boolean(),
  lastConnection: z.string().nullable(),
  verified: z.boolean(),
  isCreator: z.boolean(),
  subscriptionPrice: z.number().int().nullable(),
  subscriptionFinalPrice: z.number().int().nullable(),
  discountStatus: z.enum(['on', 'off']),
  discountPercent: z.number().int(),
  discountDateLimit: z.string().nullable(),
  counts: z.object({
    posts: z.number().int(),
    media: z.number().int(),
    likes: z.number().int(),
    subscribers: z.number().int(),
  }),
  following: z.boolean(),
  isMe: z.boolean(),
});
export type CreatorProfile = z.infer<typeof creatorProfileSchema>;

/**
 * The user preview card (spec §2 overlays): who someone is at a glance. Counts only for creators
 * (the same public figures as their page); a fan's numbers are private, so null.
 */
export const userPreviewSchema = publicUserSchema.extend({
  isCreator: z.boolean(),
  counts: z.object({ posts: z.number().int(), subscribers: z.number().int() }).nullable(),
  /** Monthly price after an active discount; null when the creator sells no subscription. */
  subscriptionFinalPrice: z.number().int().nullable(),
  following: z.boolean(),
  subscribed: z.boolean(),
  isMe: z.boolean(),
});
export type UserPreview = z.infer<typeof userPreviewSchema>;

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0', ''])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === 'on' || v === '1');

export const postsQuerySchema = z.object({
  feed: z.string().optional(),
  content: z.enum(['all', 'saved', 'bought']).optional(),
  view: z.string().optional(),
  creator: z.string().trim().max(40).optional(),
  post: z.string().uuid().optional(),
  adminStatus: z.enum([...ADMIN_STATUSES, 'all']).optional(),
  explore: z.string().optional(),
  feed_mode: z.enum(['plus', 'grid']).optional(),
  /** Only posts with a video (the /watch page and reels). */
  video: bool.optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(12),
  allStoriesLoaded: bool.optional(),
});
export type PostsQuery = z.input<typeof postsQuerySchema>;

export const postsResponseSchema = z.object({
  posts: z.array(postSchema),
  statistics: pageStatisticsSchema,
  iSubscriptor: z.boolean(),
  profile: creatorProfileSchema.nullable(),
  /** "Creators you may like": for non-creators on the home feed's first page, else empty. */
  suggestions: z.array(publicUserSchema),
});
export type PostsResponse = z.infer<typeof postsResponseSchema>;

/** A date or time of a form: empty or absent is null, anything else an ISO time. */
export const optionalIsoTime = z
  .string()
  .trim()
  .refine((v) => v === '' || !Number.isNaN(Date.parse(v)), 'invalid')
  .optional()
  .transform((v) => (v ? new Date(v).toISOString() : null));

/**
 * Vault files attached again without an upload (post, message and welcome forms): ids of the
 * caller's own vault files, as repeated form fields, a comma-separated string or a JSON array.
 */
export const vaultMediaField = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) =>
    (v === undefined ? [] : Array.isArray(v) ? v : listOfIds(v)).map((s) => String(s).trim()).filter(Boolean),
  )
  .pipe(z.array(z.string().uuid('invalid')).max(20, 'tooLong'));

/** A form field's list: a JSON array (the web client's multipart encoding) or comma-separated. */
function listOfIds(v: string): unknown[] {
  if (!v.trim().startsWith('[')) return v.split(',');
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed : [v];
  } catch {
    return [v];
  }
}

/** Post form fields (multipart text parts; files go alongside as `files`). */
export const postFieldsSchema = z
  .object({
    message: z.string().trim().max(LIMITS.postCharacters, 'tooLong').default(''),
    kind: z.enum(POST_KINDS).default('post'),
    visibility: z.enum(VISIBILITIES).default('free'),
    price: z.coerce.number().int().min(0).max(100_000).default(0),
    discountStatus: z.enum(['on', 'off']).default('off'),
    discountPercent: z.coerce.number().int().min(0).max(90).default(0),
    discountDateLimit: optionalIsoTime,
    /** Scheduled publication (ISO with offset); empty or absent publishes once approved. */
    publishAt: optionalIsoTime,
    /** Free preview of the post's videos for those without access (PREVIEW_SECONDS). */
    previewSeconds: z.coerce
      .number()
      .int()
      .refine((v) => (PREVIEW_SECONDS as readonly number[]).includes(v), 'preview.choice')
      .default(0),
    certifyAdults: bool.refine((v) => v, 'certification.required'),
    certifyConsent: bool.refine((v) => v, 'certification.required'),
    certifyTerms: bool.refine((v) => v, 'certification.required'),
    /** Media already attached that stay (edit). */
    keepMedia: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : v.split(',').filter(Boolean))),
    /** Vault files attached again without an upload (ADR 0032). */
    vaultMedia: vaultMediaField,
    /** Client id that ties socket progress events to this upload. */
    uploadId: z.string().max(64).optional(),
  })
  .refine((v) => v.visibility !== 'ppv' || v.price > 0, { path: ['price'], message: 'price.required' });
export type PostFields = z.input<typeof postFieldsSchema>;

/** A post's figures (the `statistics` query overlay), for its creator and staff. */
export const postStatisticsSchema = z.object({
  post: z.string(),
  likes: z.number().int(),
  comments: z.number().int(),
  saves: z.number().int(),
  unlocks: z.number().int(),
});
export type PostStatistics = z.infer<typeof postStatisticsSchema>;

/** An announcement to everyone on the admin creator's page (spec §6): its text. */
export const announcementRequestSchema = z.object({
  message: z.string({ error: 'required' }).trim().min(1, 'required').max(LIMITS.postCharacters, 'tooLong'),
});
export type AnnouncementRequest = z.input<typeof announcementRequestSchema>;

export const postResponseSchema = z.object({ success: z.literal(true), post: postSchema });

export const reviewRequestSchema = z.object({
  id: z.string({ error: 'MISSING_POST_ID' }).uuid('MISSING_POST_ID'),
  adminStatus: z.enum(REVIEW_DECISIONS),
  reason: z.string().trim().max(500).optional(),
});

/** The creator's queue of scheduled posts: change the time, or publish now (`publishAt` null). */
export const scheduleRequestSchema = z.object({
  id: z.string({ error: 'MISSING_POST_ID' }).uuid('MISSING_POST_ID'),
  publishAt: z
    .string()
    .trim()
    .refine((v) => !Number.isNaN(Date.parse(v)), 'invalid')
    .transform((v) => new Date(v).toISOString())
    .nullable(),
});
export const scheduledResponseSchema = z.object({ posts: z.array(postSchema) });

export const reactionRequestSchema = z.object({
  id: z.string({ error: 'MISSING_POST_ID' }).uuid('MISSING_POST_ID'),
  creator: z.string().optional(),
});
export const likeResponseSchema = z.object({
  success: z.literal(true),
  liked: z.boolean(),
  likes: z.number().int(),
});
export const saveResponseSchema = z.object({ success: z.literal(true), saved: z.boolean() });

export const likesQuerySchema = z.object({
  post: z.string({ error: 'MISSING_POST_ID' }).uuid('MISSING_POST_ID'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_LIMITS.comments),
});
export const likesResponseSchema = z.object({
  users: z.array(publicUserSchema),
  statistics: pageStatisticsSchema,
});

export type Comment = {
  _id: string;
  post: { _id: string };
  user: PublicUser;
  message: string;
  deep: number;
  parent: string | null;
  date: string;
  replies: Comment[];
};
export const commentSchema: z.ZodType<Comment> = z.lazy(() =>
  z.object({
    _id: z.string(),
    post: z.object({ _id: z.string() }),
    user: publicUserSchema,
    message: z.string(),
    deep: z.number().int(),
    parent: z.string().nullable(),
    date: z.string(),
    replies: z.array(commentSchema),
  }),
);

export const commentsQuerySchema = z.object({
  post: z.string({ error: 'MISSING_POST_ID' }).uuid('MISSING_POST_ID'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_LIMITS.comments),
});
export const commentsResponseSchema = z.object({
  comments: z.array(commentSchema),
  total: z.number().int(),
  postId: z.string(),
  statistics: pageStatisticsSchema,
});
export const createCommentRequestSchema = z.object({
  post: z.string({ error: 'MISSING_DATA' }).uuid('MISSING_DATA'),
  message: z
    .string({ error: 'MISSING_DATA' })
    .trim()
    .min(1, 'MISSING_DATA')
    .max(LIMITS.messageLength, 'tooLong'),
  parent: z.string().uuid().optional(),
});
export const createCommentResponseSchema = z.object({ success: z.literal(true), comment: commentSchema });

export const storiesQuerySchema = z.object({ creator: z.string().trim().max(40).optional() });
export const storiesResponseSchema = z.object({
  stories: z.array(postSchema),
  creator: publicUserSchema.nullable(),
  statistics: pageStatisticsSchema,
});

export const searchQuerySchema = z.object({
  q: z.string().trim().max(60).default(''),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(60).default(PAGE_LIMITS.search),
});
const pagedUsers = z.object({
  items: z.array(publicUserSchema),
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  hasMore: z.boolean(),
});
export const searchResponseSchema = z.object({
  word: z.string(),
  creators: pagedUsers,
  topCreators: pagedUsers,
});

export const suggestQuerySchema = z.object({ q: z.string().trim().max(60).default('') });
export const suggestResponseSchema = z.object({ word: z.string(), creators: z.array(publicUserSchema) });
export type SuggestResponse = z.infer<typeof suggestResponseSchema>;
export const searchPostsResponseSchema = z.object({
  word: z.string(),
  posts: z.array(postSchema),
  statistics: pageStatisticsSchema,
});
export type SearchPostsResponse = z.infer<typeof searchPostsResponseSchema>;

export const categoryTagSchema = z.enum(CATEGORY_TAGS);
export const creatorTagsSchema = z.object({
  tags: z
    .array(categoryTagSchema)
    .max(CATEGORY_MAX)
    .refine((tags) => new Set(tags).size === tags.length, 'invalid'),
});
export type CreatorTags = z.infer<typeof creatorTagsSchema>;
export const exploreQuerySchema = z.object({ tag: categoryTagSchema.optional() });
export const exploreResponseSchema = z.object({
  /** Categories with at least one creator, most chosen first. */
  tags: z.array(z.object({ tag: categoryTagSchema, creators: z.number().int() })),
  tag: categoryTagSchema.nullable(),
  /** Creators of the chosen category (empty without one). */
  tagCreators: z.array(publicUserSchema),
  trending: z.array(publicUserSchema),
  newCreators: z.array(publicUserSchema),
  /** "Creators you may like": signed-in non-creators without staff roles only (spec §2), else empty. */
  mayLike: z.array(publicUserSchema),
});
export type ExploreResponse = z.infer<typeof exploreResponseSchema>;

/** Orders of the people directories (`?view=creator`, `?view=user`). */
export const DIRECTORY_SORTS = ['popular', 'new', 'name'] as const;
/** Who the people directory (`?view=user`) lists. */
export const DIRECTORY_ROLES = ['all', 'fans', 'creators'] as const;
const directoryBase = z.object({
  /** Typo-tolerant words over handle, name and description; empty lists everyone. */
  q: z.string().trim().max(60).default(''),
  /** Ignored while searching: the best matches come first. */
  sort: z.enum(DIRECTORY_SORTS).default('popular'),
  /** Only people connected now. */
  online: bool,
  page: z.coerce.number().int().min(1).max(1000).default(1),
  limit: z.coerce.number().int().min(1).max(60).default(PAGE_LIMITS.search),
});
export const creatorDirectoryQuerySchema = directoryBase.extend({ tag: categoryTagSchema.optional() });
export const userDirectoryQuerySchema = directoryBase.extend({
  role: z.enum(DIRECTORY_ROLES).default('all'),
});
export type CreatorDirectoryQuery = z.input<typeof creatorDirectoryQuerySchema>;
export type UserDirectoryQuery = z.input<typeof userDirectoryQuerySchema>;
export const directoryEntrySchema = publicUserSchema.extend({
  isCreator: z.boolean(),
  followers: z.number().int(),
});
export type DirectoryEntry = z.infer<typeof directoryEntrySchema>;
export const directoryResponseSchema = z.object({
  items: z.array(directoryEntrySchema),
  statistics: pageStatisticsSchema,
});
export type DirectoryResponse = z.infer<typeof directoryResponseSchema>;

export const reportRequestSchema = z.object({
  type: z.enum(['post', 'story', 'profile', 'message']),
  id: z.string({ error: 'MISSING_DATA' }).min(1, 'MISSING_DATA'),
  reason: z.enum(REPORT_REASONS, { error: 'required' }),
  details: z.string().trim().max(1000).optional(),
});
export const reportResponseSchema = z.object({ success: z.literal(true), id: z.string() });

export const followRequestSchema = z.object({ creator: z.string().trim().min(1, 'required') });
export const followResponseSchema = z.object({ success: z.literal(true), following: z.boolean() });
export const followingResponseSchema = z.object({ users: z.array(publicUserSchema) });

export const galleryCategorySchema = z.object({
  _id: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  items: z.array(mediaSchema),
});
export const galleryQuerySchema = z.object({ creator: z.string().trim().max(40).optional() });
export const galleryResponseSchema = z.object({
  creator: publicUserSchema.nullable(),
  categories: z.array(galleryCategorySchema),
});
export const galleryCategoryRequestSchema = z.object({
  name: z.string({ error: 'required' }).trim().min(1, 'required').max(60, 'tooLong'),
  /**
   * Media ids (the creator's own) in this category, at least one (an empty category has nothing to
   * open); the first is the category image unless `image` is given.
   */
  media: z.array(z.string().uuid(), { error: 'gallery.empty' }).min(1, 'gallery.empty').max(200),
  image: z.string().uuid().optional(),
});
export const galleryCategoryResponseSchema = z.object({
  success: z.literal(true),
  category: galleryCategorySchema,
});
