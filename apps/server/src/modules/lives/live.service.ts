import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Live, LiveChatMessage, LiveResponse, ParsedInput } from '@fanverse/contract';
import { z } from 'zod';
import { isCreator, isOwner, isStaff, liveRefusal } from '../../access/index.ts';
import type { LiveMarkGrid } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { defineJob, type JobSender } from '../../jobs/job.ts';
import type { HlsDelivery } from '../../media/hls/index.ts';
import { LIVE_RENDITION, type LiveMedia } from '../../media/live/live-media.ts';
import type { NginxRtmpControl, NginxRtmpFiles } from '../../media/live/nginx-rtmp.ts';
import type { RealtimePublisher } from '../../realtime/publisher.ts';
import type { NotificationService } from '../notifications/notification.service.ts';
import type { UploadedFile } from '../posts/media.port.ts';
import { presentPublicUser } from '../users/public-user.presenter.ts';
import type { WalletService } from '../wallet/wallet.service.ts';
import { type LiveRepository, type LiveWithCreator, liveSpendKey } from './live.repository.ts';
import type { LiveReferences } from './live-reference.ts';

/** Tells followers and subscribers that a creator went live (one notification each, on the job queue). */
export const ANNOUNCE_LIVE = defineJob('lives.announce', z.object({ liveId: z.string().uuid() }), {
  retryLimit: 3,
});

/**
 * Drops the encoder of an ended RTMP live from the external engine (nginx-rtmp's control): the
 * engine may be restarting or unreachable for a moment, so it is a job, retried.
 */
export const DROP_ENCODER = defineJob('lives.drop-encoder', z.object({ liveId: z.string().uuid() }), {
  retryLimit: 5,
});

/**
 * Keeps an ended live's mark reference (ADR 0045) in the app's storage: the parts its runs wrote
 * beside the segments, joined. Retried: storage may be unreachable for a moment.
 */
export const KEEP_REFERENCE = defineJob('lives.keep-reference', z.object({ liveId: z.string().uuid() }), {
  retryLimit: 5,
});

export interface LiveDeps {
  lives: LiveRepository;
  media: LiveMedia;
  /** The protected HLS delivery (media/hls): signed, session-bound playlist URLs of the `live` source. */
  hls: Pick<HlsDelivery, 'playlistUrl'>;
  wallet: Pick<WalletService, 'tip' | 'gift' | 'buyLiveTicket'>;
  publisher: RealtimePublisher;
  notifications: Pick<NotificationService, 'notify'>;
  jobs: JobSender;
  findByHandle(handle: string): Promise<{ id: string; username: string; roles: string[] } | undefined>;
  /** Creates the replay post from the recording (the posts module: processing, then review). */
  createReplayPost(auth: AuthInfo, text: string, file: UploadedFile): Promise<string>;
  /** The RTMP server URL creators put in OBS. */
  rtmpUrl: string;
  /** The mark grid of the lives the built-in path encodes (LIVE_SEGMENT_SECONDS, ADR 0045). */
  markGrid: LiveMarkGrid;
  /** The external engine's files of RTMP lives (LIVE_ENGINE=nginx-rtmp, ADR 0040), if configured. */
  engine?: NginxRtmpFiles;
  /** The engine's HTTP control (LIVE_ENGINE_CONTROL_URL): ending a live drops its encoder. */
  engineControl?: Pick<NginxRtmpControl, 'publishers' | 'dropPublisher'>;
  /** The kept mark references (ADR 0045), removed with an erased live's files. */
  references: Pick<LiveReferences, 'forget'>;
  now?: () => Date;
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

function presentLive(row: LiveWithCreator, viewers: number): Live {
  return {
    _id: row.id,
    creator: presentPublicUser(row.creator),
    title: row.title,
    audience: row.audience,
    ticketPrice: row.ticketPrice,
    goalCredits: row.goalCredits,
    goalLabel: row.goalLabel,
    earnedCredits: row.earnedCredits,
    source: row.source,
    status: row.status,
    viewers,
    peakViewers: Math.max(row.peakViewers, viewers),
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    replayPost: row.replayPostId,
  };
}

/**
 * Live streaming (issue 17): going live and ending, who may watch (access/lives.ts), tickets,
 * tips and gifts during a live (the wallet's spends, category "live"), chat with moderation, the
 * stream key for RTMP encoders, and the replay. The media path itself is media/live/.
 */
export class LiveService {
  private readonly now: () => Date;

  constructor(private readonly deps: LiveDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async start(auth: AuthInfo, input: ParsedInput<'lives.start'>) {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
    const row = await this.deps.lives.create({
      creatorId: auth.userId,
      title: input.title,
      audience: input.audience,
      ticketPrice: input.audience === 'ticket' ? input.ticketPrice : 0,
      goalCredits: input.goalCredits ?? null,
      goalLabel: input.goalLabel || null,
      source: input.source,
      // The built-in path marks what it encodes; the external engine only packages (ADR 0045).
      mark: input.source === 'rtmp' && this.deps.engine ? null : this.deps.markGrid,
    });
    if (!row) throw new AppError('LIVE_ALREADY_ON');
    await this.deps.jobs.send(ANNOUNCE_LIVE, { liveId: row.id });
    return this.get(auth, row.id);
  }

  /**
   * The job: a notification (and so a pop-up) to each follower and subscriber, once per live and
   * recipient (the key `live:<id>`): a retry after a failure half-way notifies only those left.
   */
  async announce(liveId: string): Promise<void> {
    const live = await this.deps.lives.find(liveId);
    if (live?.status !== 'live') return;
    const once = `live:${live.id}`;
    for (const userId of await this.deps.lives.audienceOf(live.creatorId)) {
      await this.deps.notifications.notify(
        userId,
        'live',
        { actor: live.creator.username, title: live.title, link: `/live/${live.id}`, key: once },
        { once },
      );
    }
  }

  private async load(liveId: string): Promise<LiveWithCreator> {
    const live = await this.deps.lives.find(liveId);
    if (!live) throw new AppError('NOT_FOUND');
    return live;
  }

  private async access(auth: AuthInfo, live: LiveWithCreator) {
    const facts = await this.deps.lives.viewerFacts(live.id, live.creatorId, auth.userId, this.now());
    return {
      refusal: liveRefusal(live, { ...facts, userId: auth.userId, roles: auth.roles }),
      muted: facts.muted,
    };
  }

  async get(auth: AuthInfo, liveId: string): Promise<LiveResponse> {
    const live = await this.load(liveId);
    const [{ refusal, muted }, viewers] = await Promise.all([
      this.access(auth, live),
      this.deps.publisher.liveViewers(live.id, live.creatorId),
    ]);
    const allowed = refusal === null;
    const chat = allowed ? await this.deps.lives.recentMessages(live.id) : [];
    return {
      live: presentLive(live, viewers),
      access: { allowed, reason: refusal },
      isOwner: isOwner(auth, live),
      playlist:
        allowed && live.status === 'live'
          ? this.deps.hls.playlistUrl('live', live.id, LIVE_RENDITION, auth.sessionId)
          : null,
      muted,
      chat: chat.map(
        (c): LiveChatMessage => ({
          _id: c.message.id,
          user: presentPublicUser(c.user),
          text: c.message.text,
          date: c.message.createdAt.toISOString(),
        }),
      ),
    };
  }

  /** Whether the caller may watch now (room joins, every playlist and key request). */
  async mayWatch(auth: AuthInfo, liveId: string): Promise<boolean> {
    const live = await this.deps.lives.find(liveId);
    if (!live) return false;
    const { refusal } = await this.access(auth, live);
    return refusal === null;
  }

  async list(auth: AuthInfo) {
    const rows = await this.deps.lives.inProgress(isStaff({ roles: auth.roles }) ? null : auth.userId);
    const viewers = await Promise.all(rows.map((r) => this.deps.publisher.liveViewers(r.id, r.creatorId)));
    return { lives: rows.map((r, i) => presentLive(r, viewers[i] ?? 0)) };
  }

  /** Ends a live: its creator, or staff for any live. */
  async end(auth: AuthInfo, liveId: string) {
    const live = await this.load(liveId);
    if (!isOwner(auth, live) && !isStaff(auth)) throw new AppError('FORBIDDEN');
    await this.finish(live.id, auth.userId);
    return this.get(auth, liveId);
  }

  /** Marks the live ended, stops its media and tells everyone watching. */
  async finish(liveId: string, by: string): Promise<void> {
    const live = await this.deps.lives.find(liveId);
    const viewers = await this.deps.publisher.liveViewers(liveId, live?.creatorId);
    await this.deps.lives.recordViewers(liveId, viewers);
    const ended = await this.deps.lives.end(liveId, by, this.now());
    await this.deps.media.stop(liveId);
    if (ended && live?.source === 'rtmp' && this.deps.engineControl)
      await this.deps.jobs.send(DROP_ENCODER, { liveId });
    if (ended && live?.mark) await this.deps.jobs.send(KEEP_REFERENCE, { liveId });
    if (ended) this.deps.publisher.toLive(liveId, 'liveEnded', { liveId });
  }

  /** Ends the creator's live in progress, if any, as `lives.end` does (their account is being deleted). */
  async endCurrent(creatorId: string): Promise<void> {
    const live = await this.deps.lives.current(creatorId);
    if (live) await this.finish(live.id, creatorId);
  }

  /**
   * Removes every file of a live whose row was erased with its creator's account (ADR 0011): the
   * built-in path's folder (segments, recording, reference parts), the external engine's files and
   * the kept mark reference. Idempotent: missing files are fine.
   */
  async removeFiles(liveId: string): Promise<void> {
    await this.deps.media.stop(liveId);
    await this.deps.media.remove(liveId);
    await this.deps.engine?.remove(liveId);
    await this.deps.references.forget(liveId);
  }

  /**
   * The job: drops every publish to the engine's `live` application made with the stream key of
   * the ended live's creator (nginx names the stream by the key; only its hash is stored here, so
   * the published names are hashed and compared), and the relay under the live's id. An encoder
   * that reconnects is then refused by the publish check: its live is over.
   */
  async dropEncoder(liveId: string): Promise<void> {
    const control = this.deps.engineControl;
    const live = await this.deps.lives.find(liveId);
    if (!control || !live || live.status === 'live') return;
    for (const p of await control.publishers()) {
      const ours =
        p.app === 'live'
          ? (await this.deps.lives.creatorOfKey(hashKey(p.name))) === live.creatorId
          : p.name === live.id;
      if (ours) await control.dropPublisher(p.app, p.name);
    }
  }

  private async onAir(liveId: string): Promise<LiveWithCreator> {
    const live = await this.load(liveId);
    if (live.status !== 'live') throw new AppError('LIVE_ENDED');
    return live;
  }

  async buyTicket(auth: AuthInfo, liveId: string) {
    const live = await this.onAir(liveId);
    if (live.audience !== 'ticket') throw new AppError('NOT_FOR_SALE');
    const result = await this.deps.wallet.buyLiveTicket(
      auth.userId,
      { id: live.id, creatorId: live.creatorId, price: live.ticketPrice },
      liveSpendKey(live.id, 'ticket', auth.userId),
    );
    if (result.charged > 0) await this.supported(live.id, 'ticket', auth.username, result.charged);
    return result;
  }

  /** A tip or a gift during a live: only from a viewer who may watch, to the live's creator. */
  async support(
    auth: AuthInfo,
    liveId: string,
    input:
      | { kind: 'tip'; creator: string; credits: number; message?: string }
      | { kind: 'flowers' | 'gift'; creator: string; message?: string },
  ) {
    const live = await this.onAir(liveId);
    if (input.creator.replace(/^@/, '').toLowerCase() !== live.creator.username.toLowerCase())
      throw new AppError('VALIDATION_FAILED', {}, { live: 'invalid' });
    const { refusal } = await this.access(auth, live);
    if (refusal) throw new AppError('LIVE_NOT_ALLOWED');
    const spend = { liveId, key: (kind: string, unique: string) => liveSpendKey(liveId, kind, unique) };
    const result =
      input.kind === 'tip'
        ? await this.deps.wallet.tip(auth, input, spend)
        : await this.deps.wallet.gift(auth, { ...input, kind: input.kind }, spend);
    await this.supported(live.id, input.kind, auth.username, result.charged);
    return result;
  }

  private async supported(
    liveId: string,
    kind: 'ticket' | 'tip' | 'flowers' | 'gift',
    fan: string,
    credits: number,
  ) {
    const live = await this.load(liveId);
    this.deps.publisher.toLive(liveId, 'liveSupport', {
      liveId,
      kind,
      fan,
      credits,
      earnedCredits: live.earnedCredits,
    });
  }

  async chat(auth: AuthInfo, liveId: string, text: string) {
    const live = await this.onAir(liveId);
    const { refusal, muted } = await this.access(auth, live);
    if (refusal) throw new AppError('LIVE_NOT_ALLOWED');
    if (muted && !isOwner(auth, live)) throw new AppError('LIVE_MUTED');
    const row = await this.deps.lives.addMessage(live.id, auth.userId, text);
    const [entry] = (await this.deps.lives.recentMessages(live.id, 20)).filter(
      (m) => m.message.id === row.id,
    );
    if (!entry) throw new AppError('NOT_FOUND');
    const message: LiveChatMessage = {
      _id: row.id,
      user: presentPublicUser(entry.user),
      text: row.text,
      date: row.createdAt.toISOString(),
    };
    this.deps.publisher.toLive(live.id, 'liveChat', { liveId: live.id, message });
    return { message };
  }

  private async moderator(auth: AuthInfo, liveId: string) {
    const live = await this.load(liveId);
    if (!isOwner(auth, live) && !isStaff(auth)) throw new AppError('FORBIDDEN');
    return live;
  }

  async removeChat(auth: AuthInfo, liveId: string, messageId: string) {
    await this.moderator(auth, liveId);
    if (!(await this.deps.lives.removeMessage(liveId, messageId, this.now())))
      throw new AppError('NOT_FOUND');
    this.deps.publisher.toLive(liveId, 'liveChatRemoved', { liveId, messageId });
    return { success: true as const };
  }

  async moderate(
    auth: AuthInfo,
    liveId: string,
    input: { user: string; action: 'mute' | 'unmute' | 'ban' | 'unban' },
  ) {
    const live = await this.moderator(auth, liveId);
    const target = await this.deps.findByHandle(input.user.replace(/^@/, ''));
    if (!target) throw new AppError('NOT_FOUND');
    if (target.id === live.creatorId) throw new AppError('FORBIDDEN');
    const kind = input.action === 'mute' || input.action === 'unmute' ? 'mute' : 'ban';
    const on = input.action === 'mute' || input.action === 'ban';
    await this.deps.lives.moderate(live.id, target.id, kind, on);
    if (kind === 'ban' && on) {
      this.deps.publisher.toUser(target.id, 'liveBanned', { liveId: live.id });
      await this.deps.publisher.leaveLive(live.id, target.id);
    }
    return { success: true as const };
  }

  /** Publishes an ended live's recording as a post: the video pipeline processes it, then review. */
  async replay(auth: AuthInfo, liveId: string, text: string) {
    const live = await this.load(liveId);
    if (!isOwner(auth, live)) throw new AppError('FORBIDDEN');
    if (live.status !== 'ended') throw new AppError('POST_STATE_CONFLICT');
    if (live.replayPostId) throw new AppError('POST_STATE_CONFLICT');
    const file = (await this.deps.media.recording(live.id)) ?? this.deps.engine?.recording(live.id);
    if (!file) throw new AppError('LIVE_NO_RECORDING');
    const { size } = await fs.promises.stat(file);
    const ext = file.endsWith('.flv') ? 'flv' : 'webm';
    const post = await this.deps.createReplayPost(auth, text || live.title, {
      field: 'files',
      filename: `live.${ext}`,
      mimetype: ext === 'flv' ? 'video/x-flv' : 'video/webm',
      path: file,
      size,
    });
    await this.deps.lives.setReplay(live.id, post);
    return { success: true as const, post };
  }

  // The creator's RTMP stream key: random, shown once, only its hash stored.

  async streamKeyState(auth: AuthInfo) {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
    return { exists: await this.deps.lives.hasStreamKey(auth.userId), server: this.deps.rtmpUrl };
  }

  async createStreamKey(auth: AuthInfo) {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
    const key = `fv_${randomBytes(24).toString('base64url')}`;
    await this.deps.lives.setStreamKey(auth.userId, hashKey(key));
    return { key, server: this.deps.rtmpUrl };
  }

  async revokeStreamKey(auth: AuthInfo) {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
    await this.deps.lives.revokeStreamKey(auth.userId);
    return { success: true as const };
  }

  /** The live an RTMP publish with this key goes to (the creator's current rtmp live), or undefined. */
  async liveForStreamKey(key: string): Promise<string | undefined> {
    const creatorId = await this.deps.lives.creatorOfKey(hashKey(key));
    if (!creatorId) return undefined;
    const live = await this.deps.lives.current(creatorId);
    return live?.source === 'rtmp' ? live.id : undefined;
  }

  /**
   * The engine's on_publish (nginx-rtmp, ADR 0040): where the stream with this key goes (the
   * relay URL under the live's id), or undefined (refused). The caller checked the engine secret.
   */
  async enginePublish(key: string, relayUrl: string): Promise<string | undefined> {
    const liveId = key ? await this.liveForStreamKey(key) : undefined;
    return liveId ? `${relayUrl}/${liveId}` : undefined;
  }

  /** The browser's camera chunks: only the creator of a live in progress may send them. */
  async mayIngest(auth: AuthInfo, liveId: string): Promise<boolean> {
    const live = await this.deps.lives.find(liveId);
    return !!live && live.creatorId === auth.userId && live.status === 'live' && live.source === 'browser';
  }

  /** The room changed: the viewer count (people other than the creator) to everyone and the peak. */
  async viewersChanged(liveId: string): Promise<void> {
    const live = await this.deps.lives.find(liveId);
    if (!live) return;
    const viewers = await this.deps.publisher.liveViewers(liveId, live.creatorId);
    await this.deps.lives.recordViewers(liveId, viewers);
    this.deps.publisher.toLive(liveId, 'liveViewers', { liveId, viewers });
  }
}
