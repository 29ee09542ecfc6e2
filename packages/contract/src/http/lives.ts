import { z } from 'zod';
import { publicUserSchema } from './content.ts';
import { spendResponseSchema } from './money.ts';

/** Who may watch a live: the creator's subscribers, everyone logged in, or ticket holders. */
export const LIVE_AUDIENCES = ['subscribers', 'everyone', 'ticket'] as const;
export type LiveAudience = (typeof LIVE_AUDIENCES)[number];
/** Where the creator's video comes from: the browser (camera over the socket) or an RTMP encoder (OBS). */
export const LIVE_SOURCES = ['browser', 'rtmp'] as const;
export type LiveSource = (typeof LIVE_SOURCES)[number];
export const LIVE_STATUSES = ['live', 'ended'] as const;
export type LiveStatus = (typeof LIVE_STATUSES)[number];
export const LIVE_MODERATIONS = ['mute', 'ban'] as const;
export type LiveModeration = (typeof LIVE_MODERATIONS)[number];
/** Why a viewer may not watch: what the page offers instead. */
export const LIVE_REFUSALS = ['subscribe', 'ticket', 'banned', 'ended'] as const;
export type LiveRefusal = (typeof LIVE_REFUSALS)[number];

export const LIVE_LIMITS = { titleMax: 120, goalLabelMax: 80, chatMax: 280, ticketMax: 100_000 } as const;

const uuidParam = z.string().uuid('NOT_FOUND');
const liveIdParam = z.object({ id: uuidParam });

export const startLiveRequestSchema = z
  .object({
    title: z.string().trim().min(1).max(LIVE_LIMITS.titleMax),
    audience: z.enum(LIVE_AUDIENCES),
    ticketPrice: z.coerce.number().int().min(0).max(LIVE_LIMITS.ticketMax).default(0),
    goalCredits: z.coerce.number().int().min(1).max(10_000_000).optional(),
    goalLabel: z.string().trim().max(LIVE_LIMITS.goalLabelMax).optional(),
    source: z.enum(LIVE_SOURCES).default('browser'),
  })
  .superRefine((v, ctx) => {
    if (v.audience === 'ticket' && v.ticketPrice < 1) {
      ctx.addIssue({ code: 'custom', path: ['ticketPrice'], message: 'required' });
    }
  });
export type StartLiveRequest = z.input<typeof startLiveRequestSchema>;

export const liveSchema = z.object({
  _id: z.string(),
  creator: publicUserSchema,
  title: z.string(),
  audience: z.enum(LIVE_AUDIENCES),
  ticketPrice: z.number().int(),
  goalCredits: z.number().int().nullable(),
  goalLabel: z.string().nullable(),
  /** Credits received during this live (tickets, tips and gifts): the goal bar's progress. */
  earnedCredits: z.number().int(),
  source: z.enum(LIVE_SOURCES),
  status: z.enum(LIVE_STATUSES),
  viewers: z.number().int(),
  peakViewers: z.number().int(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  replayPost: z.string().nullable(),
});
export type Live = z.infer<typeof liveSchema>;

export const liveChatMessageSchema = z.object({
  _id: z.string(),
  user: publicUserSchema,
  text: z.string(),
  date: z.string(),
});
export type LiveChatMessage = z.infer<typeof liveChatMessageSchema>;

export const liveResponseSchema = z.object({
  live: liveSchema,
  /** Whether the caller may watch; when not, why (and so what the page offers). */
  access: z.object({ allowed: z.boolean(), reason: z.enum(LIVE_REFUSALS).nullable() }),
  /** The caller is the live's creator. */
  isOwner: z.boolean(),
  /** The HLS playlist (only when allowed and the live is on). */
  playlist: z.string().nullable(),
  muted: z.boolean(),
  chat: z.array(liveChatMessageSchema),
});
export type LiveResponse = z.infer<typeof liveResponseSchema>;

export const livesResponseSchema = z.object({ lives: z.array(liveSchema) });
export const liveChatRequestSchema = z.object({ text: z.string().trim().min(1).max(LIVE_LIMITS.chatMax) });
export const liveModerateRequestSchema = z.object({
  user: z.string().trim().min(1).max(40),
  action: z.enum(['mute', 'unmute', 'ban', 'unban']),
});
export const streamKeyResponseSchema = z.object({
  /** Shown once: only its hash is stored. */
  key: z.string(),
  /** The RTMP server URL to put in OBS ("Server"). */
  server: z.string(),
});
export const streamKeyStateSchema = z.object({ exists: z.boolean(), server: z.string() });
export const replayRequestSchema = z.object({
  text: z.string().trim().max(280).default(''),
});
export const replayResponseSchema = z.object({ success: z.literal(true), post: z.string() });

/** Endpoints of live streaming (issue 17), spread into the contract's endpoint list. */
export const liveEndpoints = {
  'lives.start': {
    method: 'POST',
    path: '/lives',
    input: startLiveRequestSchema,
    output: liveResponseSchema,
    auth: 'required',
    summary: 'Go live (creators): title, audience (subscribers, everyone logged in, ticket), goal, source.',
  },
  'lives.now': {
    method: 'GET',
    path: '/lives',
    output: livesResponseSchema,
    auth: 'required',
    summary: 'Lives in progress of the creators the caller follows or subscribes to (staff: every live).',
  },
  'lives.get': {
    method: 'GET',
    path: '/lives/:id',
    params: liveIdParam,
    output: liveResponseSchema,
    auth: 'required',
    summary: "A live with the caller's access (refusal reason), playlist when allowed, and recent chat.",
  },
  'lives.end': {
    method: 'POST',
    path: '/lives/:id/end',
    params: liveIdParam,
    output: liveResponseSchema,
    auth: 'required',
    summary: 'End a live (its creator; staff: any live).',
  },
  'lives.ticket': {
    method: 'POST',
    path: '/lives/:id/ticket',
    params: liveIdParam,
    output: spendResponseSchema,
    auth: 'required',
    summary: 'Buy the ticket of a ticketed live with credits (charged once).',
  },
  'lives.chat': {
    method: 'POST',
    path: '/lives/:id/chat',
    params: liveIdParam,
    input: liveChatRequestSchema,
    output: z.object({ message: liveChatMessageSchema }),
    auth: 'required',
    summary: 'Send a chat message to a live (viewers who may watch and are not muted).',
  },
  'lives.removeChat': {
    method: 'DELETE',
    path: '/lives/:id/chat/:message',
    params: z.object({ id: uuidParam, message: uuidParam }),
    output: z.object({ success: z.literal(true) }),
    auth: 'required',
    summary: "Remove a chat message (the live's creator, staff).",
  },
  'lives.moderate': {
    method: 'POST',
    path: '/lives/:id/moderate',
    params: liveIdParam,
    input: liveModerateRequestSchema,
    output: z.object({ success: z.literal(true) }),
    auth: 'required',
    summary: "Mute, unmute, ban or unban a viewer (the live's creator, staff).",
  },
  'lives.replay': {
    method: 'POST',
    path: '/lives/:id/replay',
    params: liveIdParam,
    input: replayRequestSchema,
    output: replayResponseSchema,
    auth: 'required',
    summary: "Publish an ended live's recording as a post (its creator; goes through processing and review).",
  },
  'lives.streamKey': {
    method: 'GET',
    path: '/lives/key',
    output: streamKeyStateSchema,
    auth: 'required',
    summary: 'Whether the creator has an RTMP stream key, and the RTMP server URL (creators).',
  },
  'lives.createStreamKey': {
    method: 'POST',
    path: '/lives/key',
    output: streamKeyResponseSchema,
    auth: 'required',
    summary: 'Create or replace the RTMP stream key (creators); shown once, stored hashed.',
  },
  'lives.revokeStreamKey': {
    method: 'DELETE',
    path: '/lives/key',
    output: z.object({ success: z.literal(true) }),
    auth: 'required',
    summary: 'Revoke the RTMP stream key (creators).',
  },
} as const;
