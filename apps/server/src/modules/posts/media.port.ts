import type { Media } from '@fanverse/contract';
import type { Viewer } from '../../access/index.ts';
import type { MediaRow } from '../../db/schema.ts';

/** A file of a multipart request, already on disk. */
export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  path: string;
  size: number;
}

export type MediaPurpose = 'post' | 'story' | 'message' | 'avatar' | 'cover' | 'gallery';

/** What content features need from the media pipeline. */
export interface MediaPort {
  /**
   * Stores the original as `processing`; nothing is processed until `startProcessing`. The owner's
   * same bytes come back as the stored row with `reused` (ADR 0032): never remove a reused row.
   */
  ingest(input: {
    ownerId: string;
    purpose: MediaPurpose;
    file: UploadedFile;
    /** Videos: seconds of free preview to encode (0: none). */
    previewSeconds?: number;
  }): Promise<MediaRow & { reused: boolean }>;
  get(mediaId: string): Promise<MediaRow | undefined>;
  getMany(mediaIds: string[]): Promise<MediaRow[]>;
  /** The viewer's own vault files to attach again, in the given order; NOT_FOUND for any other id. */
  attachable(viewer: Viewer, mediaIds: readonly string[]): Promise<MediaRow[]>;
  /** Queues the processing jobs, once the post or message holding the files is stored. */
  startProcessing(mediaIds: readonly string[]): Promise<void>;
  /** Processes one small image within the caller's request (avatars, covers). */
  processNow(mediaId: string): Promise<MediaRow | undefined>;
  /**
   * Pictures of private media are signed for `viewerId`, whose mark they carry (ADR 0026); no URL
   * is valid past `until` (a story's end for its fans, `mediaSeenUntil`).
   */
  present(row: MediaRow, access: boolean, viewerId: string | null, until?: Date | null): Media;
  remove(mediaId: string): Promise<void>;
  /** A generated file of a ready video by name under its prefix (e.g. the tracer's reference). */
  videoFile(mediaId: string, name: string): Promise<{ open(): Promise<AsyncIterable<Uint8Array>> } | null>;
  /** Deletes the stored files and marked copies of a row the caller deleted. */
  removeStored(row: MediaRow): Promise<void>;
  /**
   * Deletes stored files whose rows are already gone, and the marked copies of those media;
   * failures are counted, never thrown.
   */
  removeFiles(
    keys: readonly string[],
    mediaIds?: readonly string[],
  ): Promise<{ deleted: number; failed: number }>;
}
