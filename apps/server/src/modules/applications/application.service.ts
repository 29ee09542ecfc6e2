import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { ApplyState, DocumentSide, Language, ParsedInput, Verification } from '@fanverse/contract';
import { DOCUMENT_SIDES, formatMessage, pageStatistics } from '@fanverse/contract';
import { isAdministrator, isCreator } from '../../access/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { detectUpload, maxBytesFor } from '../../media/detect.ts';
import type { Storage } from '../../media/storage.ts';
import type { ActionLog } from '../admin/action-log.ts';
import type { NotificationService } from '../notifications/notification.service.ts';
import type { UploadedFile } from '../posts/media.port.ts';
import type { FeatureGate } from '../settings/platform-settings.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { presentApplyState, presentVerification } from './application.presenter.ts';
import type { ApplicationRepository, ApplicationRow } from './application.repository.ts';

/** Sends a message to a person's inbox (the messaging module); the decision arrives there. */
export type InboxPort = (from: AuthInfo, toHandle: string, text: string) => Promise<void>;

export interface ApplicationDeps {
  applications: ApplicationRepository;
  users: UserRepository;
  storage: Storage;
  notifications: NotificationService;
  log: ActionLog;
  inbox?: InboxPort;
  limits: { maxImageBytes: number; maxVideoBytes: number };
  retentionDays: number;
  /** Feature switches (creator applications). */
  features: FeatureGate;
  now?: () => Date;
}

export type ApplyInput =
  | ({ step: '1' } & Record<string, unknown>)
  | { step: '2'; acceptCreatorTerms: true | 'true' }
  | { step: '3'; documentType: 'national_id' | 'passport' | 'driving_licence' };

const DECISION_TEXT = {
  accept: {
    en: 'Your creator application was approved. Welcome! You can now publish posts and stories.',
    es: 'Tu solicitud de creador fue aprobada. ¡Bienvenido! Ya puedes publicar publicaciones e historias.',
  },
  reject: {
    en: 'Your creator application was not approved: {reason}. You can correct it and apply again.',
    es: 'Tu solicitud de creador no fue aprobada: {reason}. Puedes corregirla y volver a solicitarla.',
  },
} as const;

/**
 * The four-step creator application (profile, creator terms, three identity photos, waiting) and
 * its review. Identity photos live in private storage and are only ever streamed to verifiers.
 */
export class ApplicationService {
  private readonly now: () => Date;
  constructor(private readonly deps: ApplicationDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async state(auth: AuthInfo): Promise<ApplyState> {
    const app = await this.deps.applications.findByUser(auth.userId);
    if (!app) return presentApplyState(undefined, []);
    return presentApplyState(app, await this.deps.applications.documents(app.id));
  }

  async submit(auth: AuthInfo, input: ApplyInput, files: UploadedFile[]): Promise<ApplyState> {
    if (isCreator(auth) && auth.verified) throw new AppError('FORBIDDEN');
    await this.deps.features.require('creatorApplications');
    const app = await this.deps.applications.ensure(auth.userId);
    if (app.status === 'pending' || app.status === 'accepted') throw new AppError('FORBIDDEN');
    if (input.step === '1') {
      const { step: _step, ...fields } = input;
      await this.deps.applications.update(app.id, { fields, status: 'draft' });
      await this.deps.users.update(auth.userId, {
        user: {
          name: String(fields.fullName),
          country: String(fields.country),
          birthdate: String(fields.birthday),
        },
        profile: { about: String(fields.description) },
      });
    } else if (input.step === '2') {
      this.requireSteps(app, 1);
      await this.deps.applications.update(app.id, { termsAcceptedAt: this.now(), status: 'draft' });
    } else {
      this.requireSteps(app, 2);
      await this.storeDocuments(app, files);
      const docs = await this.deps.applications.documents(app.id);
      const complete = DOCUMENT_SIDES.every((s) => docs.some((d) => d.side === s));
      if (!complete) {
        const missing = DOCUMENT_SIDES.filter((s) => !docs.some((d) => d.side === s));
        throw new AppError('MISSING_DATA', {}, Object.fromEntries(missing.map((s) => [s, 'required'])));
      }
      await this.deps.applications.update(app.id, {
        documentType: input.documentType,
        status: 'pending',
        reason: null,
        submittedAt: this.now(),
      });
    }
    return this.state(auth);
  }

  async list(auth: AuthInfo, q: ParsedInput<'admin.verifications'>) {
    if (!isAdministrator(auth)) throw new AppError('FORBIDDEN');
    const { rows, total } = await this.deps.applications.list(q.status, q.q, q.page, q.limit);
    const docs = await this.deps.applications.documentsOf(rows.map((r) => r.application.id));
    return {
      items: rows.map((r) => presentVerification(r.application, r.user, r.profile, docs)),
      statistics: pageStatistics(q.page, q.limit, total),
    };
  }

  async decide(
    auth: AuthInfo,
    id: string,
    decision: 'accept' | 'reject',
    reason?: string,
  ): Promise<Verification> {
    if (!isAdministrator(auth)) throw new AppError('FORBIDDEN');
    const app = await this.deps.applications.find(id);
    if (!app) throw new AppError('NOT_FOUND');
    if (app.status !== 'pending') throw new AppError('FORBIDDEN');
    const at = this.now();
    if (decision === 'accept') await this.deps.applications.accept(app.id, app.userId, auth.userId, at);
    else
      await this.deps.applications.update(app.id, {
        status: 'rejected',
        reason: reason ?? null,
        decidedBy: auth.userId,
        decidedAt: at,
      });
    await this.deps.log.record(auth, `verification.${decision}`, 'application', app.id, {
      reason: reason ?? null,
    });
    const user = await this.deps.users.findById(app.userId);
    if (user) {
      const lang: Language = user.language === 'es' ? 'es' : 'en';
      const text = formatMessage(DECISION_TEXT[decision][lang], { reason: reason ?? '' });
      await this.deps.inbox?.(auth, user.username, text).catch(() => undefined);
      await this.deps.notifications.notify(
        user.id,
        decision === 'accept' ? 'verification_accepted' : 'verification_rejected',
        {
          link: decision === 'accept' ? `/${user.username}` : '/user/creator',
          reason: reason ?? '',
        },
      );
    }
    const row = await this.deps.applications.findWithUser(app.id);
    if (!row) throw new AppError('NOT_FOUND');
    return presentVerification(
      row.application,
      row.user,
      row.profile,
      await this.deps.applications.documents(app.id),
    );
  }

  /** An identity photo, for verifiers only; nobody else can reach it by any URL. */
  async document(auth: AuthInfo, id: string, side: string) {
    if (!isAdministrator(auth)) throw new AppError('FORBIDDEN');
    const doc = (await this.deps.applications.documents(id)).find((d) => d.side === side);
    if (!doc) throw new AppError('NOT_FOUND');
    await this.deps.log.record(auth, 'verification.view_document', 'application', id, { side });
    const stat = await this.deps.storage.stat(doc.storageKey);
    if (!stat) throw new AppError('NOT_FOUND');
    return { mime: doc.mime, size: stat.size, open: () => this.deps.storage.stream(doc.storageKey) };
  }

  /** Deletes identity photos of applications decided longer ago than the retention period. */
  async sweepDocuments(): Promise<number> {
    const before = new Date(this.now().getTime() - this.deps.retentionDays * 86_400_000);
    let removed = 0;
    for (const id of await this.deps.applications.decidedWithDocuments(before)) {
      for (const key of await this.deps.applications.deleteDocuments(id)) {
        await this.deps.storage.delete(key).catch(() => undefined);
        removed += 1;
      }
    }
    return removed;
  }

  private requireSteps(app: ApplicationRow, upTo: 1 | 2): void {
    const state = presentApplyState(app, []);
    if (!state.step1 || (upTo === 2 && !state.step2)) throw new AppError('MISSING_DATA');
  }

  private async storeDocuments(app: ApplicationRow, files: UploadedFile[]): Promise<void> {
    const bySide = new Map<DocumentSide, UploadedFile>();
    for (const f of files) {
      if ((DOCUMENT_SIDES as readonly string[]).includes(f.field)) bySide.set(f.field as DocumentSide, f);
    }
    const hashes = new Map<string, DocumentSide>();
    const checked: { side: DocumentSide; file: UploadedFile; ext: string; mime: string }[] = [];
    for (const [side, file] of bySide) {
      const head = Buffer.alloc(4096);
      const fd = await fs.promises.open(file.path, 'r');
      const { bytesRead } = await fd.read(head, 0, head.length, 0);
      await fd.close();
      const type = detectUpload(head.subarray(0, bytesRead), file.filename);
      if (type.kind !== 'image') throw new AppError('FILE_NOT_SUPPORTED', { name: file.filename });
      const max = maxBytesFor('image', this.deps.limits);
      if (file.size > max)
        throw new AppError('FILE_TOO_LARGE', { name: file.filename, n: Math.round(max / 1048576) });
      const hash = createHash('sha256')
        .update(await fs.promises.readFile(file.path))
        .digest('hex');
      // The same picture three times (a selfie alone) is not an identity check.
      if (hashes.has(hash)) throw new AppError('VALIDATION_FAILED', {}, { [side]: 'document.duplicate' });
      hashes.set(hash, side);
      checked.push({ side, file, ext: type.ext, mime: type.mime });
    }
    for (const c of checked) {
      const key = `identity/${app.id}/${c.side}-${randomUUID()}.${c.ext}`;
      await this.deps.storage.put(key, c.file.path, c.mime);
      const old = await this.deps.applications.putDocument(app.id, c.side, key, c.mime);
      if (old) await this.deps.storage.delete(old).catch(() => undefined);
    }
  }
}
