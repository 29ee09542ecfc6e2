import type { UpdateProfileRequest } from '@fanverse/contract';
import { isCreator, mayCustomiseProfile } from '../../access/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { type Crop, cropImageFile } from '../../media/crop.ts';
import type { MediaPort, UploadedFile } from '../posts/media.port.ts';
import type { CountersService } from './counters.service.ts';
import { presentProfile } from './user.presenter.ts';
import type { ProfileChanges, UserRepository } from './user.repository.ts';

export interface UserDeps {
  media: MediaPort;
  cdnUrl: string | undefined;
  users: UserRepository;
  counters: CountersService;
  /** Told when a creator switches the visible mark, so the next copies follow it at once. */
  watermarks?: { visibleChanged(ownerId: string): void };
  now?: () => Date;
}

/** The own profile and presence (account deletion: `AccountDeletionService`). */
export class UserService {
  private readonly now: () => Date;
  constructor(private readonly deps: UserDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async profile(auth: AuthInfo) {
    const user = await this.deps.users.findById(auth.userId);
    if (!user) throw new AppError('INVALID_TOKEN');
    const [unread, counters] = await Promise.all([
      this.deps.users.unreadNotifications(auth.userId),
      this.deps.counters.forUser(auth),
    ]);
    return presentProfile(user, unread, counters);
  }

  async updateProfile(auth: AuthInfo, input: UpdateProfileRequest) {
    if (input.username && (await this.deps.users.usernameTaken(input.username, auth.userId))) {
      throw new AppError('USERNAME_TAKEN', {}, { username: 'username.taken' });
    }
    const changes: ProfileChanges = { user: {}, profile: {} };
    if (input.username !== undefined) changes.user.username = input.username;
    if (input.name !== undefined) changes.user.name = input.name;
    if (input.birthdate !== undefined) changes.user.birthdate = input.birthdate;
    if (input.country !== undefined) changes.user.country = input.country;
    if (input.language !== undefined) changes.user.language = input.language;
    const blankToNull = (v: string | null) => (v === null || v === '' ? null : v);
    if (input.displayName !== undefined) {
      const displayName = blankToNull(input.displayName);
      // The profile form sends every field: only a change of the display name waits for the email.
      const current = (await this.deps.users.findById(auth.userId))?.profile?.displayName ?? null;
      if (displayName !== current) this.requireCustomisation(auth);
      changes.profile.displayName = displayName;
    }
    if (input.about !== undefined) changes.profile.about = blankToNull(input.about);
    if (input.location !== undefined) changes.profile.location = blankToNull(input.location);
    if (input.visibleWatermark !== undefined) {
      if (!isCreator(auth)) throw new AppError('FORBIDDEN');
      changes.profile.visibleWatermark = input.visibleWatermark;
    }
    await this.deps.users.update(auth.userId, changes);
    if (input.visibleWatermark !== undefined) this.deps.watermarks?.visibleChanged(auth.userId);
    return this.profile(auth);
  }

  /** Sets the avatar or cover from one uploaded image, cropped as the adjust editor says. */
  async setImage(auth: AuthInfo, input: { kind: 'avatar' | 'cover' } & Partial<Crop>, files: UploadedFile[]) {
    this.requireCustomisation(auth);
    const [upload] = files;
    if (!upload || files.length !== 1) throw new AppError('MISSING_DATA', {}, { files: 'required' });
    let file = upload;
    const { x, y, width, height } = input;
    if (x !== undefined && y !== undefined && width !== undefined && height !== undefined) {
      const cropped = await cropImageFile(upload.path, { x, y, width, height }).catch(() => null);
      if (!cropped) throw new AppError('VALIDATION_FAILED', {}, { crop: 'invalid' });
      file = { ...upload, path: cropped, filename: `${upload.filename}.png` };
      files.push(file); // removed with the request's temp files
    }
    const row = await this.deps.media.ingest({ ownerId: auth.userId, purpose: input.kind, file });
    // A small image the caller waits for: processed within the request, not queued.
    const done = await this.deps.media.processNow(row.id);
    if (done?.status !== 'ready') throw new AppError('FILE_NOT_SUPPORTED', { name: upload.filename });
    const url = `${this.deps.cdnUrl ?? ''}/api/v1/public-media/${row.id}/${input.kind === 'avatar' ? 'thumb' : 'web'}`;
    const before = await this.deps.users.findById(auth.userId);
    await this.deps.users.update(auth.userId, { user: {}, profile: { [input.kind]: url } });
    const previous = before?.profile?.[input.kind]?.match(/public-media\/([0-9a-f-]{36})\//)?.[1];
    if (previous) await this.deps.media.remove(previous).catch(() => undefined);
    return this.profile(auth);
  }

  /** Profile customisation waits for a confirmed email (spec §6; the rule: access/accounts.ts). */
  private requireCustomisation(auth: AuthInfo): void {
    if (!mayCustomiseProfile(auth)) throw new AppError('EMAIL_NOT_CONFIRMED');
  }

  /** Presence heartbeat: marks the user online now and answers the counters. */
  async reportConnection(auth: AuthInfo) {
    const at = this.now();
    await this.deps.users.setPresence(auth.userId, true, at);
    return {
      counter: await this.deps.counters.forUser(auth),
      online: true,
      lastConnection: at.toISOString(),
    };
  }
}
