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
  ingest(input: { ownerId: string; purpose: MediaPurpose; file: UploadedFile }): Promise<MediaRow>;
  whenProcessed(
    mediaIds: string[],
    onProgress?: (percent: number, message: string) => void,
  ): Promise<MediaRow[]>;
  present(row: MediaRow, access: boolean): Media;
  remove(mediaId: string): Promise<void>;
  /** Deletes stored files whose rows are already gone; failures are counted, never thrown. */
  removeFiles(keys: readonly string[]): Promise<{ deleted: number; failed: number }>;
}
