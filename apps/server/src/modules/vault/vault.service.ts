import type {
  VaultFileResponse,
  VaultFolder,
  VaultFoldersResponse,
  VaultItem,
  VaultResponse,
} from '@fanverse/contract';
import { pageStatistics } from '@fanverse/contract';
import { canUseVaultFile, isCreator } from '../../access/index.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { MediaRow } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { MediaPort } from '../posts/media.port.ts';
import type {
  VaultEarnings,
  VaultFilter,
  VaultFolderRow,
  VaultRepository,
  VaultUses,
} from './vault.repository.ts';

const DAY_MS = 24 * 3600_000;

export interface VaultQueryInput {
  folder: VaultFilter['folder'];
  type: VaultFilter['type'];
  used: VaultFilter['used'];
  status: VaultFilter['status'];
  q: string;
  from: string | null;
  to: string | null;
  page: number;
  limit: number;
}

/**
 * The creator's media library (ADR 0032): every upload once, in folders, where it is used and what
 * it sold, safe deletion. Private to its owner: every method answers the calling creator's own.
 */
export class VaultService {
  constructor(
    private readonly vault: VaultRepository,
    private readonly media: Pick<MediaPort, 'present' | 'get' | 'removeStored'>,
  ) {}

  async list(auth: AuthInfo, query: VaultQueryInput): Promise<VaultResponse> {
    this.creator(auth);
    if (query.folder !== 'all' && query.folder !== 'none') await this.ownFolder(auth, query.folder);
    const { rows, total } = await this.vault.page(
      {
        ownerId: auth.userId,
        folder: query.folder,
        type: query.type,
        used: query.used,
        status: query.status,
        q: query.q,
        from: query.from ? new Date(query.from) : null,
        // Through the end of the chosen day.
        to: query.to ? new Date(new Date(query.to).getTime() + DAY_MS) : null,
      },
      query.page,
      query.limit,
    );
    const ids = rows.map((r) => r.id);
    const [uses, earned] = await Promise.all([this.vault.uses(ids), this.vault.earnings(auth.userId, ids)]);
    return {
      items: rows.map((r) => this.present(auth, r, uses.get(r.id)!, earned.get(r.id)!)),
      statistics: pageStatistics(query.page, query.limit, total),
    };
  }

  /** One own file: every post, story and message holding it and what each sold; welcome; gallery. */
  async file(auth: AuthInfo, mediaId: string): Promise<VaultFileResponse> {
    const row = await this.ownFile(auth, mediaId);
    const [uses, earned, posts, messages, welcome] = await Promise.all([
      this.vault.uses([row.id]),
      this.vault.earnings(auth.userId, [row.id]),
      this.vault.postUses(auth.userId, row.id),
      this.vault.messageUses(auth.userId, row.id),
      this.vault.welcomeUse(auth.userId, row.id),
    ]);
    const use = uses.get(row.id)!;
    return {
      item: this.present(auth, row, use, earned.get(row.id)!),
      posts,
      messages,
      welcome,
      gallery: use.gallery,
    };
  }

  async folders(auth: AuthInfo): Promise<VaultFoldersResponse> {
    this.creator(auth);
    const { folders, unfiled } = await this.vault.folders(auth.userId);
    return { folders: folders.map((f) => presentFolder(f, f.files)), unfiled };
  }

  async createFolder(auth: AuthInfo, name: string): Promise<VaultFolder> {
    this.creator(auth);
    const row = await this.uniqueName(() => this.vault.createFolder(auth.userId, name));
    return presentFolder(row, 0);
  }

  async renameFolder(auth: AuthInfo, id: string, name: string): Promise<VaultFolder> {
    await this.ownFolder(auth, id);
    const row = await this.uniqueName(() => this.vault.renameFolder(auth.userId, id, name));
    if (!row) throw new AppError('NOT_FOUND');
    return presentFolder(row, await this.vault.folderFiles(id));
  }

  /** Deletes an own folder; its files stay in the vault, in no folder. */
  async deleteFolder(auth: AuthInfo, id: string): Promise<void> {
    await this.ownFolder(auth, id);
    if (!(await this.vault.deleteFolder(auth.userId, id))) throw new AppError('NOT_FOUND');
  }

  /** Moves own files into an own folder (or none); any id not the caller's own file is NOT_FOUND. */
  async move(auth: AuthInfo, ids: string[], folder: string | null): Promise<void> {
    this.creator(auth);
    if (folder) await this.ownFolder(auth, folder);
    const wanted = [...new Set(ids)];
    // All or nothing: one id that is not the caller's own vault file moves none.
    if ((await this.vault.move(auth.userId, wanted, folder)) !== wanted.length)
      throw new AppError('NOT_FOUND');
  }

  /** Deletes an own file that nothing uses; MEDIA_IN_USE otherwise (the file stays). */
  async remove(auth: AuthInfo, mediaId: string): Promise<void> {
    const row = await this.media.get(mediaId);
    if (!row || !canUseVaultFile(auth, row)) throw new AppError('NOT_FOUND');
    const deleted = await this.vault.deleteUnused(mediaId);
    if (!deleted) throw new AppError('MEDIA_IN_USE');
    await this.media.removeStored(deleted);
  }

  private creator(auth: AuthInfo): void {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
  }

  private async ownFile(auth: AuthInfo, mediaId: string): Promise<MediaRow> {
    this.creator(auth);
    const row = await this.media.get(mediaId);
    if (!row || !canUseVaultFile(auth, row)) throw new AppError('NOT_FOUND');
    return row;
  }

  /** Another creator's folder is as missing as one that never existed. */
  private async ownFolder(auth: AuthInfo, id: string): Promise<VaultFolderRow> {
    this.creator(auth);
    const row = await this.vault.folder(id);
    if (!row || row.ownerId !== auth.userId) throw new AppError('NOT_FOUND');
    return row;
  }

  private async uniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('VAULT_FOLDER_TAKEN');
      throw err;
    }
  }

  private present(auth: AuthInfo, row: MediaRow, uses: VaultUses, earned: VaultEarnings): VaultItem {
    return {
      _id: row.id,
      name: row.name,
      size: row.size,
      date: row.createdAt.toISOString(),
      media: this.media.present(row, true, auth.userId),
      uses,
      used: uses.posts > 0 || uses.messages > 0 || uses.welcome || uses.gallery > 0,
      folder: row.folderId,
      earned,
    };
  }
}

const presentFolder = (row: VaultFolderRow, files: number): VaultFolder => ({
  _id: row.id,
  name: row.name,
  files,
});
