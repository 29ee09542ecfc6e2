import type { Media } from '@fanverse/contract';
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
  /** Stores the original as `processing`; nothing is processed until `startProcessing`. */
  ingest(input: { ownerId: string; purpose: MediaPurpose; file: UploadedFile }): Promise<MediaRow>;
  /** Queues the processing jobs, once the post or message holding the files is stored. */
  startProcessing(mediaIds: readonly string[]): Promise<void>;
  /** Processes one small image within the caller's request (avatars, covers). */
  processNow(mediaId: string): Promise<MediaRow | undefined>;
  present(row: MediaRow, access: boolean): Media;
  remove(mediaId: string): Promise<void>;
  /** Deletes stored files whose rows are already gone; failures are counted, never thrown. */
  removeFiles(keys: readonly string[]): Promise<{ deleted: number; failed: number }>;
}
