import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { JobSender } from '../jobs/job.ts';
import type { MarkBackfillRepository } from './mark-backfill.repository.ts';
import { MEDIA_REMARK } from './media.jobs.ts';
import type { MediaRepository } from './media.repository.ts';
import { mediaPrefix } from './media.service.ts';
import type { Storage } from './storage.ts';
import { encodingAt, type VideoManifest, videoManifest } from './video.ts';
import type { VideoEncoder } from './video-encoder.ts';

/** Videos one scan queues: a few at a time, each its own job keyed by the media id. */
export const REMARK_BATCH = 3;

export interface MarkBackfillDeps {
  repo: MarkBackfillRepository;
  media: MediaRepository;
  storage: Storage;
  encoder: VideoEncoder;
  jobs: JobSender;
  logger?: { error(obj: unknown, msg?: string): void };
}

/**
 * The mark backfill (ADR 0041): private videos encoded before the forensic mark (or whose free
 * preview was) are re-encoded with it, one job per video. The re-encoding is stored beside the old
 * files (`v/<keyId>/`), then the media row switches to it in one update — the old URLs play until
 * then — and the old files are deleted. Every step is safe to repeat or to race (see `remark`).
 */
export class MarkBackfill {
  constructor(private readonly deps: MarkBackfillDeps) {}

  /** How many private videos are still served unmarked somewhere. */
  remaining(): Promise<number> {
    return this.deps.repo.countUnmarked();
  }

  /** Queues the next few videos to re-encode (a video already queued is not queued twice). */
  async queueNext(): Promise<number> {
    const ids = await this.deps.repo.nextUnmarked(REMARK_BATCH);
    for (const mediaId of ids)
      await this.deps.jobs.send(MEDIA_REMARK, { mediaId }, { singletonKey: mediaId });
    return ids.length;
  }

  /**
   * Re-encodes one video with the mark and switches its row to it. Idempotent: a video already
   * marked only loses what an earlier run left (the replaced encoding's files, a crashed run's
   * pending ones). Two runs at once: the later claim displaces the earlier, whose switch then fails
   * and which deletes its own files; a run whose switch fails because the row moved does the same.
   */
  async remark(mediaId: string): Promise<void> {
    const { repo, encoder } = this.deps;
    const row = await repo.unmarked(mediaId);
    if (!row) return this.cleanUp(mediaId);
    const prefix = mediaPrefix(row);
    const served = videoManifest(row.info)?.keyId ?? null;
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'fanverse-remark-'));
    let stored: VideoManifest | null = null;
    try {
      const local = path.join(dir, path.basename(row.originalKey));
      await this.deps.storage.download(row.originalKey, local);
      const out = await encoder.transcode(row, local, dir, { background: true });
      const pending = out.info.video;
      const displaced = await repo.claim(row.id, served, pending);
      if (displaced === false) return;
      if (displaced) await encoder.remove(prefix, displaced);
      stored = pending;
      await encoder.store(prefix, out);
      if (!(await repo.switchTo(row.id, served, pending.keyId, out.info)))
        return await this.dropPending(row.id, prefix, pending);
      stored = null;
      await this.dropReplaced(row.id, prefix, videoManifest(row.info));
    } catch (err) {
      // A later run displaced this one and deleted its files as it was storing them (a write into
      // a folder deleted under it fails): the video is that run's now, and this one just ends.
      const displaced = !!stored && !(await repo.stillPending(row.id, stored.keyId).catch(() => true));
      // What this run stored is never served: a run that displaced it may have switched already
      // and would not know of the files this one wrote after.
      if (stored) await this.dropPending(row.id, prefix, stored).catch(() => undefined);
      if (displaced) return;
      this.deps.logger?.error({ err, mediaId }, 'mark backfill failed');
      await repo.failed(row.id, err instanceof Error ? err.message : String(err));
      throw err;
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  /** A video that needs no re-encoding: what earlier runs left of theirs goes. */
  private async cleanUp(mediaId: string): Promise<void> {
    const row = await this.deps.media.get(mediaId);
    if (!row) return;
    const prefix = mediaPrefix(row);
    await this.dropReplaced(row.id, prefix, encodingAt(row.info, 'replacedVideo'));
    // Not served and no longer to be: a run that died before its switch (a live run's switch fails).
    const pending = encodingAt(row.info, 'pendingVideo');
    if (pending) await this.dropPending(row.id, prefix, pending);
  }

  /** Deletes the files of an encoding that will not be served, then forgets it if still pending. */
  private async dropPending(id: string, prefix: string, pending: VideoManifest): Promise<void> {
    await this.deps.encoder.remove(prefix, pending);
    await this.deps.repo.forget(id, 'pendingVideo', pending.keyId);
  }

  /** Deletes the files of the encoding a switch replaced, then forgets it. */
  private async dropReplaced(id: string, prefix: string, replaced: VideoManifest | null): Promise<void> {
    if (!replaced) return;
    await this.deps.encoder.remove(prefix, replaced);
    await this.deps.repo.forget(id, 'replacedVideo', replaced.keyId);
  }
}
