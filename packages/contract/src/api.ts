import { z } from 'zod';
import {
  adminRoleRequestSchema,
  adminUserActionSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  applyRequestSchema,
  applyStateSchema,
  complaintActionSchema,
  complaintSchema,
  complaintsQuerySchema,
  complaintsResponseSchema,
  verificationDecisionSchema,
  verificationSchema,
  verificationsQuerySchema,
  verificationsResponseSchema,
} from './http/admin.ts';
import {
  authResponseSchema,
  loginRequestSchema,
  okResponseSchema,
  resetCodeRequestSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
} from './http/auth.ts';
import { contactRequestSchema, contactResponseSchema, outboxResponseSchema } from './http/contact.ts';
import {
  commentsQuerySchema,
  commentsResponseSchema,
  createCommentRequestSchema,
  createCommentResponseSchema,
  creatorProfileSchema,
  followingResponseSchema,
  followRequestSchema,
  followResponseSchema,
  galleryCategoryRequestSchema,
  galleryCategoryResponseSchema,
  galleryQuerySchema,
  galleryResponseSchema,
  likeResponseSchema,
  likesQuerySchema,
  likesResponseSchema,
  postFieldsSchema,
  postResponseSchema,
  postsQuerySchema,
  postsResponseSchema,
  reactionRequestSchema,
  reportRequestSchema,
  reportResponseSchema,
  reviewRequestSchema,
  saveResponseSchema,
  searchQuerySchema,
  searchResponseSchema,
  storiesQuerySchema,
  storiesResponseSchema,
} from './http/content.ts';
import { homeQuerySchema, homeResponseSchema } from './http/home.ts';
import {
  blockRequestSchema,
  blockResponseSchema,
  blocksResponseSchema,
  contactsQuerySchema,
  contactsResponseSchema,
  conversationQuerySchema,
  conversationResponseSchema,
  massMessageRequestSchema,
  massMessageResponseSchema,
  sendMessageRequestSchema,
  sendMessageResponseSchema,
} from './http/messages.ts';
import { moneyEndpoints } from './http/money.ts';
import {
  notificationsQuerySchema,
  notificationsReadRequestSchema,
  notificationsReadResponseSchema,
  notificationsResponseSchema,
} from './http/notifications.ts';
import { settingsEndpoints } from './http/settings.ts';
import {
  ADMIN_STATISTICS_PAGES,
  adminStatisticsResponseSchema,
  creatorStatisticsResponseSchema,
  statisticsQuerySchema,
} from './http/statistics.ts';
import {
  connectionReportRequestSchema,
  connectionReportResponseSchema,
  deleteAccountRequestSchema,
  profileImageFieldsSchema,
  profileSchema,
  updateProfileRequestSchema,
} from './http/user.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointDef {
  method: HttpMethod;
  /** Path under /api/v1, with `:param` placeholders. */
  path: string;
  /** Body schema (POST/PUT/PATCH) or query schema (GET); for multipart, the text fields. */
  input?: z.ZodType;
  /** Path parameters. */
  params?: z.ZodType;
  /** multipart/form-data with files under `files` (the text fields are parsed with `input`). */
  multipart?: boolean;
  output: z.ZodType;
  auth: 'none' | 'optional' | 'required';
  summary: string;
}

const empty = z.object({});
const idParam = z.object({ id: z.string().uuid('NOT_FOUND') });
const okSchema = z.object({ success: z.literal(true) });

/**
 * Every HTTP endpoint, typed once: the server registers its routes against these definitions,
 * the web app's client is generated from them, and the API reference is built from them.
 */
export const endpoints = {
  'home.get': {
    method: 'GET',
    path: '/',
    input: homeQuerySchema,
    output: homeResponseSchema,
    auth: 'optional',
    summary: 'Start-up data: locale data, app name, CDN domain, admin user, landing.',
  },
  'auth.signup': {
    method: 'POST',
    path: '/auth/signup',
    input: signupRequestSchema,
    output: authResponseSchema,
    auth: 'none',
    summary: 'Create an account (18+, terms accepted) and start a session.',
  },
  'auth.login': {
    method: 'POST',
    path: '/auth/login',
    input: loginRequestSchema,
    output: authResponseSchema,
    auth: 'none',
    summary: 'Log in with username or email and password.',
  },
  'auth.logout': {
    method: 'POST',
    path: '/auth/logout',
    input: empty,
    output: okResponseSchema,
    auth: 'required',
    summary: 'Revoke the current session token.',
  },
  'auth.code': {
    method: 'POST',
    path: '/auth/code',
    input: resetCodeRequestSchema,
    output: okResponseSchema,
    auth: 'none',
    summary: 'Mail a short-lived password reset code (same answer whether or not the email exists).',
  },
  'auth.pass': {
    method: 'POST',
    path: '/auth/pass',
    input: resetPasswordRequestSchema,
    output: okResponseSchema,
    auth: 'none',
    summary: 'Set a new password with a reset code; revokes every session of the account.',
  },
  'user.profile': {
    method: 'GET',
    path: '/user/profile',
    output: profileSchema,
    auth: 'required',
    summary: 'The own profile with unread notifications and the user-store counters.',
  },
  'user.updateProfile': {
    method: 'PATCH',
    path: '/user/profile',
    input: updateProfileRequestSchema,
    output: profileSchema,
    auth: 'required',
    summary: 'Edit the own profile.',
  },
  'user.profileImage': {
    method: 'POST',
    path: '/user/profile/image',
    input: profileImageFieldsSchema,
    multipart: true,
    output: profileSchema,
    auth: 'required',
    summary: 'Set the avatar or cover from one image, cropped as the adjust editor says.',
  },
  'user.delete': {
    method: 'POST',
    path: '/user/delete',
    input: deleteAccountRequestSchema,
    output: okResponseSchema,
    auth: 'required',
    summary: 'Delete the own account (type delete / eliminar and the password).',
  },
  'report.connection': {
    method: 'POST',
    path: '/report/connection',
    input: connectionReportRequestSchema,
    output: connectionReportResponseSchema,
    auth: 'required',
    summary: 'Presence heartbeat (every 60 s); answers the counters.',
  },
  'contact.send': {
    method: 'POST',
    path: '/contact',
    input: contactRequestSchema,
    output: contactResponseSchema,
    auth: 'optional',
    summary: 'Contact, DMCA, content-removal and billing requests, stored for admins.',
  },
  'dev.outbox': {
    method: 'GET',
    path: '/dev/outbox',
    input: z.object({ to: z.string().optional() }),
    output: outboxResponseSchema,
    auth: 'none',
    summary: 'Mails sent while no SMTP_URL is set (loopback callers only).',
  },
  'posts.list': {
    method: 'GET',
    path: '/posts',
    input: postsQuerySchema,
    output: postsResponseSchema,
    auth: 'optional',
    summary:
      'Feeds: home, creator page, my_content (all/saved/bought), gallery, explore, single post, review queue.',
  },
  'posts.create': {
    method: 'POST',
    path: '/posts',
    input: postFieldsSchema,
    multipart: true,
    output: postResponseSchema,
    auth: 'required',
    summary: 'Create a post or story (creator role); media processed as jobs with socket progress.',
  },
  'posts.update': {
    method: 'PUT',
    path: '/posts/:id',
    params: idParam,
    input: postFieldsSchema,
    multipart: true,
    output: postResponseSchema,
    auth: 'required',
    summary: 'Edit an own post; it goes back to review.',
  },
  'posts.delete': {
    method: 'DELETE',
    path: '/posts/:id',
    params: idParam,
    output: okSchema,
    auth: 'required',
    summary: 'Delete an own post (admins: any post).',
  },
  'admin.postReview': {
    method: 'POST',
    path: '/admin/post-review',
    input: reviewRequestSchema,
    output: postResponseSchema,
    auth: 'required',
    summary: 'Set the review status of a post or story (admin, coord, super).',
  },
  'posts.like': {
    method: 'POST',
    path: '/user/post/like',
    input: reactionRequestSchema,
    output: likeResponseSchema,
    auth: 'required',
    summary: 'Like or unlike a post.',
  },
  'posts.save': {
    method: 'POST',
    path: '/user/post/save',
    input: reactionRequestSchema,
    output: saveResponseSchema,
    auth: 'required',
    summary: 'Save or unsave a post.',
  },
  'likes.list': {
    method: 'GET',
    path: '/likes',
    input: likesQuerySchema,
    output: likesResponseSchema,
    auth: 'required',
    summary: 'Who liked a post, newest first.',
  },
  'comments.list': {
    method: 'GET',
    path: '/comments',
    input: commentsQuerySchema,
    output: commentsResponseSchema,
    auth: 'required',
    summary: 'Top-level comments of a post with their replies (24 a page).',
  },
  'comments.create': {
    method: 'POST',
    path: '/comments/create',
    input: createCommentRequestSchema,
    output: createCommentResponseSchema,
    auth: 'required',
    summary: 'Comment on a post or reply to a comment.',
  },
  'stories.list': {
    method: 'GET',
    path: '/stories',
    input: storiesQuerySchema,
    output: storiesResponseSchema,
    auth: 'required',
    summary: "A creator's approved stories of the last 24 hours, or of followed creators.",
  },
  'creator.search': {
    method: 'GET',
    path: '/creator/search',
    input: searchQuerySchema,
    output: searchResponseSchema,
    auth: 'optional',
    summary: 'Typo-tolerant creator search (30 a page) and top creators.',
  },
  'creator.profile': {
    method: 'GET',
    path: '/creator/profile/:id',
    params: z.object({ id: z.string().trim().min(1).max(40) }),
    output: creatorProfileSchema,
    auth: 'required',
    summary: "A creator's public profile by handle.",
  },
  'report.create': {
    method: 'POST',
    path: '/report',
    input: reportRequestSchema,
    output: reportResponseSchema,
    auth: 'required',
    summary: 'Report a post, story, profile or message; becomes a complaint for admins.',
  },
  'user.follow': {
    method: 'POST',
    path: '/user/follow',
    input: followRequestSchema,
    output: followResponseSchema,
    auth: 'required',
    summary: 'Favourite (follow) or unfollow a creator.',
  },
  'user.following': {
    method: 'GET',
    path: '/user/following',
    output: followingResponseSchema,
    auth: 'required',
    summary: 'The favourites list.',
  },
  'gallery.get': {
    method: 'GET',
    path: '/gallery',
    input: galleryQuerySchema,
    output: galleryResponseSchema,
    auth: 'required',
    summary: "A creator's gallery categories with their media (own gallery without creator).",
  },
  'gallery.saveCategory': {
    method: 'POST',
    path: '/gallery/categories',
    input: galleryCategoryRequestSchema,
    output: galleryCategoryResponseSchema,
    auth: 'required',
    summary: 'Create a gallery category with media (creator role).',
  },
  'gallery.deleteCategory': {
    method: 'DELETE',
    path: '/gallery/categories/:id',
    params: idParam,
    output: okSchema,
    auth: 'required',
    summary: 'Delete an own gallery category (its media stay).',
  },
  'message.contacts': {
    method: 'GET',
    path: '/message/contacts',
    input: contactsQuerySchema,
    output: contactsResponseSchema,
    auth: 'required',
    summary: 'Conversations, newest first (24 a page), with unread counts; q searches handle or name.',
  },
  'message.conversation': {
    method: 'GET',
    path: '/message',
    input: conversationQuerySchema,
    output: conversationResponseSchema,
    auth: 'required',
    summary: 'Messages with one person (24 a page, page 1 newest); page 1 marks them read.',
  },
  'message.send': {
    method: 'POST',
    path: '/message/send',
    input: sendMessageRequestSchema,
    multipart: true,
    output: sendMessageResponseSchema,
    auth: 'required',
    summary: 'Send a message (form data with files, or JSON); one message per messageUUID.',
  },
  'message.mass': {
    method: 'POST',
    path: '/message/mass',
    input: massMessageRequestSchema,
    multipart: true,
    output: massMessageResponseSchema,
    auth: 'required',
    summary: 'A creator sends one message to every active subscriber (rate-limited).',
  },
  'user.block': {
    method: 'POST',
    path: '/user/block',
    input: blockRequestSchema,
    output: blockResponseSchema,
    auth: 'required',
    summary: 'Block or unblock a user by handle (no messages or comments either way).',
  },
  'user.blocks': {
    method: 'GET',
    path: '/user/blocks',
    output: blocksResponseSchema,
    auth: 'required',
    summary: 'The users the caller blocked.',
  },
  'notifications.list': {
    method: 'GET',
    path: '/notifications',
    input: notificationsQuerySchema,
    output: notificationsResponseSchema,
    auth: 'required',
    summary: "Own notifications, newest first (10 a page), worded in the caller's language.",
  },
  'notifications.read': {
    method: 'POST',
    path: '/notifications/read',
    input: notificationsReadRequestSchema,
    output: notificationsReadResponseSchema,
    auth: 'required',
    summary: 'Mark as read every notification up to ?timestamp= (ms); answers the unread count.',
  },
  'admin.userRole': {
    method: 'POST',
    path: '/admin/users/:id/role',
    params: idParam,
    input: adminRoleRequestSchema,
    output: okSchema,
    auth: 'required',
    summary: 'Grant or take away the admin or coordinator role (super only).',
  },
  'admin.statistics': {
    method: 'GET',
    path: '/admin/statistics/:id',
    params: z.object({ id: z.enum(ADMIN_STATISTICS_PAGES, { error: 'NOT_FOUND' }) }),
    input: statisticsQuerySchema,
    output: adminStatisticsResponseSchema,
    auth: 'required',
    summary:
      'Admin statistics: home, sales, creators, bags, fans, users, salesByCreator (admin, coord, super).',
  },
  'creator.statistics': {
    method: 'GET',
    path: '/creator/statistics',
    input: statisticsQuerySchema,
    output: creatorStatisticsResponseSchema,
    auth: 'required',
    summary: "A creator's subscribers, daily sales and top posts for a period (earnings: /creator/earnings).",
  },
  'creator.applyState': {
    method: 'GET',
    path: '/creator/apply',
    output: applyStateSchema,
    auth: 'required',
    summary: 'The creator application steps (step1..step4, DataApplyCreatorComplete).',
  },
  'creator.apply': {
    method: 'POST',
    path: '/creator/apply',
    input: applyRequestSchema,
    multipart: true,
    output: applyStateSchema,
    auth: 'required',
    summary: 'Send one step of the creator application (step 3 carries the files front, back and face).',
  },
  'admin.verifications': {
    method: 'GET',
    path: '/admin/verifications',
    input: verificationsQuerySchema,
    output: verificationsResponseSchema,
    auth: 'required',
    summary: 'Creator applications to review (admin, super).',
  },
  'admin.verificationDecide': {
    method: 'POST',
    path: '/admin/verifications/:id',
    params: idParam,
    input: verificationDecisionSchema,
    output: verificationSchema,
    auth: 'required',
    summary: 'Accept or reject an application; the result reaches the applicant (admin, super).',
  },
  'admin.complaints': {
    method: 'GET',
    path: '/admin/complaints',
    input: complaintsQuerySchema,
    output: complaintsResponseSchema,
    auth: 'required',
    summary: 'Reports and DMCA / content-removal requests (admin, coord, super).',
  },
  'admin.complaintAct': {
    method: 'POST',
    path: '/admin/complaints/:id',
    params: idParam,
    input: complaintActionSchema,
    output: complaintSchema,
    auth: 'required',
    summary: 'Answer a complaint and act on it; the reporter is told the outcome (admin, coord, super).',
  },
  'admin.users': {
    method: 'GET',
    path: '/admin/users',
    input: adminUsersQuerySchema,
    output: adminUsersResponseSchema,
    auth: 'required',
    summary: 'Users, fans, creators and admins, searchable and paged (admin, coord, super).',
  },
  'admin.userAction': {
    method: 'POST',
    path: '/admin/users/:id',
    params: idParam,
    input: adminUserActionSchema,
    output: okSchema,
    auth: 'required',
    summary: 'Suspend or restore an account (admin, super).',
  },
  ...moneyEndpoints,
  ...settingsEndpoints,
} as const satisfies Record<string, EndpointDef>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export type EndpointInput<N extends EndpointName> = Endpoints[N] extends { input: infer S extends z.ZodType }
  ? z.input<S>
  : undefined;
/** What a service receives: the input after the contract schema parsed it (defaults applied). */
export type ParsedInput<N extends EndpointName> = Endpoints[N] extends { input: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;
export type EndpointOutput<N extends EndpointName> = z.infer<Endpoints[N]['output']>;
