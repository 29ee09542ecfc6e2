import { isVaultFile } from '../access/index.ts';
import { ANALYSIS_FILTER, MARK_SEGMENT_SECONDS, type VideoMarkKey } from '../watermark/video-mark.ts';
import type { FfmpegPaths } from './ffmpeg.ts';
import type { HlsKeys } from './hls/keys.ts';
import type { MediaRow } from './media.repository.ts';
import { contentTypeOfKey, type Storage } from './storage.ts';
import type { MarkFrames } from './transcode.ts';
import { type TranscodedVideo, transcodeVideo, type VideoManifest, videoFileNames } from './video.ts';

export interface VideoEncoderDeps {
  storage: Storage;
  /** Resolved on first use, so a server without video uploads never needs the binaries. */
  ffmpeg: () => FfmpegPaths;
  /** Derives the AES-128 keys videos are encrypted with (HLS delivery). */
  hlsKeys: HlsKeys;
  /** x264 preset of the ladder (VIDEO_PRESET); `veryfast` by default. */
  preset?: string;
  /** The video mark's pattern (ADR 0041). */
  videoKey: VideoMarkKey;
}

/** Storage deletes in flight at once when an encoding's files go. */
const DELETE_BATCH = 16;

/**
 * Encodes a stored video into encrypted HLS (ADR 0021), every private one with the forensic mark
 * (ADR 0041), and stores or removes an encoding's files. Used by the upload's processing and by the
 * mark backfill's re-encoding.
 */
export class VideoEncoder {
  constructor(private readonly deps: VideoEncoderDeps) {}

  /**
   * Transcodes a video's original (downloaded to `local`) in `workDir`. Private videos (every purpose
   * but public avatars and covers) carry each fan's mark, renditions and free preview alike. A
   * `background` re-encoding of a stored video goes to a folder of its own beside the stored files,
   * makes no MP4 (the stored one stays) and runs ffmpeg at the lowest CPU priority.
   */
  transcode(
    row: Pick<MediaRow, 'id' | 'purpose' | 'previewSeconds'>,
    local: string,
    workDir: string,
    opts: { background?: boolean; onStep?: (percent: number) => void } = {},
  ): Promise<TranscodedVideo> {
    return transcodeVideo(this.deps.ffmpeg(), local, workDir, {
      keys: this.deps.hlsKeys,
      mediaId: row.id,
      previewSeconds: row.previewSeconds,
      preset: this.deps.preset,
      mark: isVaultFile(row) ? this.markFrames() : undefined,
      ...(opts.background ? { reencoding: true, mp4: false, lowPriority: true } : {}),
      onStep: opts.onStep,
    });
  }

  /** Stores an encoding's HLS files, sprite and reference under the media prefix (in its folder). */
  async store(prefix: string, video: TranscodedVideo): Promise<void> {
    for (const [name, file] of video.files)
      await this.deps.storage.put(`${prefix}/${name}`, file, contentTypeOfKey(name));
  }

  /** Deletes an encoding's files; those already gone are no error. */
  async remove(prefix: string, manifest: VideoManifest): Promise<void> {
    const keys = videoFileNames(manifest).map((name) => `${prefix}/${name}`);
    for (let i = 0; i < keys.length; i += DELETE_BATCH)
      await Promise.all(keys.slice(i, i + DELETE_BATCH).map((k) => this.deps.storage.delete(k)));
  }

  /** What the transcoder needs to mark a video (ADR 0041). */
  private markFrames(): MarkFrames {
    const key = this.deps.videoKey;
    return {
      blendFrame: (width, height, variant) => key.blendFrame(width, height, variant),
      segmentSeconds: MARK_SEGMENT_SECONDS,
      referenceFilter: ANALYSIS_FILTER,
    };
  }
}
