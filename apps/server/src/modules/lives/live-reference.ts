import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LiveMedia } from '../../media/live/live-media.ts';
import { joinReferenceParts } from '../../media/live/reference-parts.ts';
import type { Storage } from '../../media/storage.ts';
import type { LiveRepository } from './live.repository.ts';

/** Where an ended live's mark reference is kept in the app's storage (server-side key, never served). */
export const liveReferenceKey = (liveId: string) => `lives/${liveId}/mark-ref.gray`;

export interface LiveReferenceDeps {
  media: Pick<LiveMedia, 'referenceParts' | 'dropReferenceParts'>;
  /** The media storage (local or S3), where videos' references are kept too. */
  storage: Pick<Storage, 'put' | 'exists' | 'download' | 'delete'>;
  /** Whether the live still exists (undefined: its row was erased with its creator's account). */
  lives: Pick<LiveRepository, 'markGrid'>;
}

/**
 * The tracer's reference of a marked live (ADR 0045): the unmarked picture as grey frames, written
 * by the live's ffmpeg runs beside its segments while it is on, joined and kept in the app's
 * storage once it ended (the `lives.keep-reference` job), read by the leak tracer.
 */
export class LiveReferences {
  constructor(private readonly deps: LiveReferenceDeps) {}

  /**
   * The job: joins the runs' parts, stores the result, then removes the parts. A re-run after a
   * crash stores the same bytes again; once the parts are gone there is nothing left to do.
   */
  async keep(liveId: string): Promise<void> {
    const parts = this.deps.media.referenceParts(liveId);
    if (parts.length === 0) return;
    // A live erased with its creator's account (ADR 0011) keeps nothing.
    if (await this.erased(liveId)) return this.deps.media.dropReferenceParts(liveId);
    await withTempFile(async (file) => {
      await joinReferenceParts(parts, file);
      await this.deps.storage.put(liveReferenceKey(liveId), file, 'application/octet-stream');
    });
    // Erased while this run was storing: the erasure's file removal may have run before the put.
    if (await this.erased(liveId)) await this.forget(liveId);
    await this.deps.media.dropReferenceParts(liveId);
  }

  /** Removes the kept reference (the live was erased); a missing one is fine. */
  forget(liveId: string): Promise<void> {
    return this.deps.storage.delete(liveReferenceKey(liveId));
  }

  private async erased(liveId: string): Promise<boolean> {
    return (await this.deps.lives.markGrid(liveId)) === undefined;
  }

  /** The reference's bytes (grey frames, ANALYSIS size): kept in storage, or joined from a live still on. */
  async read(liveId: string): Promise<Buffer | null> {
    const key = liveReferenceKey(liveId);
    return withTempFile(async (file) => {
      if (await this.deps.storage.exists(key)) await this.deps.storage.download(key, file);
      else {
        const parts = this.deps.media.referenceParts(liveId);
        if (parts.length === 0) return null;
        await joinReferenceParts(parts, file);
      }
      return fs.promises.readFile(file);
    });
  }
}

async function withTempFile<T>(work: (file: string) => Promise<T>): Promise<T> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'fv-live-ref-'));
  try {
    return await work(path.join(dir, 'ref.gray'));
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
