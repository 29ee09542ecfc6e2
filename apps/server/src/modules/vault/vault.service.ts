import type { VaultItem, VaultResponse } from '@fanverse/contract';
import { pageStatistics } from '@fanverse/contract';
import { canUseVaultFile, isCreator } from '../../access/index.ts';
import type { MediaRow } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { MediaPort } from '../posts/media.port.ts';
import type { VaultFilter, VaultRepository, VaultUses } from './vault.repository.ts';

const DAY_MS = 24 * 3600_000;

export interface VaultQueryInput {
  type: VaultFilter['type'];
  used: VaultFilter['used'];
  q: string;
  from: string | null;
  to: string | null;
  page: number;
  limit: number;
}

/** The creator's media library (ADR 0032): every upload once, where it is used, safe deletion. */
export class VaultService {
  constructor(
    private readonly vault: VaultRepository,
    private readonly media: Pick<MediaPort, 'present' | 'get' | 'removeStored'>,
  ) {}

  async list(auth: AuthInfo, query: VaultQueryInput): Promise<VaultResponse> {
    if (!isCreator(auth)) throw new AppError('FORBIDDEN');
    const { rows, total } = await this.vault.page(
      {
        ownerId: auth.userId,
        type: query.type,
        used: query.used,
        q: query.q,
        from: query.from ? new Date(query.from) : null,
        // Through the end of the chosen day.
        to: query.to ? new Date(new Date(query.to).getTime() + DAY_MS) : null,
      },
      query.page,
      query.limit,
    );
    const uses = await this.vault.uses(rows.map((r) => r.id));
    return {
      items: rows.map((r) => this.present(auth, r, uses.get(r.id)!)),
      statistics: pageStatistics(query.page, query.limit, total),
    };
  }

  /** Deletes an own file that nothing uses; MEDIA_IN_USE otherwise (the file stays). */
  async remove(auth: AuthInfo, mediaId: string): Promise<void> {
    const row = await this.media.get(mediaId);
    if (!row || !canUseVaultFile(auth, row)) throw new AppError('NOT_FOUND');
    const deleted = await this.vault.deleteUnused(mediaId);
    if (!deleted) throw new AppError('MEDIA_IN_USE');
    await this.media.removeStored(deleted);
  }

  private present(auth: AuthInfo, row: MediaRow, uses: VaultUses): VaultItem {
    return {
      _id: row.id,
      name: row.name,
      size: row.size,
      date: row.createdAt.toISOString(),
      media: this.media.present(row, true, auth.userId),
      uses,
      used: uses.posts > 0 || uses.messages > 0 || uses.welcome || uses.gallery > 0,
    };
  }
}
