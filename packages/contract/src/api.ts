import { z } from 'zod';
import {
  authResponseSchema,
  loginRequestSchema,
  okResponseSchema,
  resetCodeRequestSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
} from './http/auth.ts';
import { contactRequestSchema, contactResponseSchema, outboxResponseSchema } from './http/contact.ts';
import { homeQuerySchema, homeResponseSchema } from './http/home.ts';
import {
  connectionReportRequestSchema,
  connectionReportResponseSchema,
  deleteAccountRequestSchema,
  profileSchema,
  updateProfileRequestSchema,
} from './http/user.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointDef {
  method: HttpMethod;
  /** Path under /api/v1, with `:param` placeholders. */
  path: string;
  /** Body schema (POST/PUT/PATCH) or query schema (GET). */
  input?: z.ZodType;
  output: z.ZodType;
  auth: 'none' | 'optional' | 'required';
  summary: string;
}

const empty = z.object({});

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
} as const satisfies Record<string, EndpointDef>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export type EndpointInput<N extends EndpointName> = Endpoints[N] extends { input: infer S extends z.ZodType }
  ? z.input<S>
  : undefined;
export type EndpointOutput<N extends EndpointName> = z.infer<Endpoints[N]['output']>;
