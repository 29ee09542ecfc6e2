import type { Config } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { JobSender } from '../../jobs/job.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { newDeviceMail } from '../../mail/templates.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { NEW_DEVICE_MAIL } from './auth.jobs.ts';
import { deviceOf, sameDevice } from './device.ts';
import type { SessionRepository } from './session.repository.ts';

export interface DeviceDeps {
  sessions: SessionRepository;
  users: UserRepository;
  mailer: Mailer;
  jobs: JobSender;
  config: Pick<Config, 'appName' | 'publicUrl' | 'port'>;
  /** Disconnects the sockets of revoked sessions (on every server copy, through the Redis adapter). */
  onSessionsRevoked?: (sessionIds: string[]) => void;
  now?: () => Date;
}

/**
 * Devices (issue 18): the account's sessions with the device named from the User-Agent and the
 * address it signed in from; revoking one or all others cuts their sockets at once; a sign-in from
 * a device the account has not used before is mailed (on the job queue).
 */
export class DeviceService {
  private readonly now: () => Date;
  constructor(private readonly deps: DeviceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async list(auth: AuthInfo) {
    const rows = await this.deps.sessions.listActive(auth.userId, this.now());
    // This device first, then the most recently seen.
    rows.sort((a, b) => Number(b.id === auth.sessionId) - Number(a.id === auth.sessionId));
    return {
      items: rows.map((r) => ({
        id: r.id,
        current: r.id === auth.sessionId,
        device: deviceOf(r.userAgent),
        address: r.ip,
        signedInAt: r.createdAt.toISOString(),
        lastSeenAt: r.lastUsedAt.toISOString(),
      })),
    };
  }

  async revoke(auth: AuthInfo, sessionId: string): Promise<void> {
    if (!(await this.deps.sessions.revokeOwn(auth.userId, sessionId, this.now())))
      throw new AppError('NOT_FOUND');
    this.deps.onSessionsRevoked?.([sessionId]);
  }

  async revokeOthers(auth: AuthInfo): Promise<number> {
    const ids = await this.deps.sessions.revokeAllExcept(auth.userId, auth.sessionId, this.now());
    this.deps.onSessionsRevoked?.(ids);
    return ids.length;
  }

  /** After a sign-in: queues the new-device mail when no earlier session was on this kind of device. */
  async noticeSignIn(userId: string, sessionId: string): Promise<void> {
    const session = await this.deps.sessions.findDevice(sessionId);
    if (!session) return;
    const earlier = await this.deps.sessions.earlierUserAgents(userId, sessionId);
    if (earlier.length === 0) return; // the account's first session: nothing to compare with
    if (earlier.some((ua) => sameDevice(ua, session.userAgent))) return;
    await this.deps.jobs.send(NEW_DEVICE_MAIL, { sessionId });
  }

  /** The job: mails the account about the sign-in, in its language. */
  async sendNewDeviceMail(sessionId: string): Promise<void> {
    const session = await this.deps.sessions.findDevice(sessionId);
    if (!session) return;
    const user = await this.deps.users.findById(session.userId);
    if (!user || user.deletedAt) return;
    const lang = user.language === 'es' ? 'es' : 'en';
    const device = deviceOf(session.userAgent);
    const base = this.deps.config.publicUrl ?? `http://localhost:${this.deps.config.port}`;
    await this.deps.mailer.send(
      newDeviceMail(lang, {
        to: user.email,
        name: user.name,
        app: this.deps.config.appName,
        device: [device.browser, device.os].filter(Boolean).join(', ') || '?',
        address: session.ip ?? '?',
        at: session.createdAt.toISOString().replace('T', ' ').slice(0, 16),
        link: `${base}/user/devices`,
      }),
    );
  }
}
