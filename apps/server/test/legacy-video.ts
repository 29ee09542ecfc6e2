import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { media } from '../src/db/schema.ts';
import { resolveAppSecret } from '../src/lib/secret.ts';
import { resolveFfmpeg } from '../src/media/ffmpeg.ts';
import { HlsKeys } from '../src/media/hls/keys.ts';
import { type MediaService, mediaPrefix } from '../src/media/media.service.ts';
import { contentTypeOfKey, createStorage } from '../src/media/storage.ts';
import { transcodeVideo, videoFileNames, videoManifest } from '../src/media/video.ts';
import type { TestApp } from './harness.ts';

/**
 * Turns a processed video into one from before the mark (ADR 0041): its encoding is replaced by
 * what the pipeline stored then — the same ladder without the mark (4 s segments, plain segment
 * names, an unmarked preview) at the media prefix, and the MP4 fallback fans were handed.
 */
export async function encodeUnmarked(t: TestApp, mediaId: string): Promise<void> {
  const row = await (t.services.media as MediaService).get(mediaId);
  if (!row) throw new Error('no such media');
  const storage = createStorage(t.config);
  const prefix = mediaPrefix(row);
  const manifest = videoManifest(row.info);
  if (manifest) for (const name of videoFileNames(manifest)) await storage.delete(`${prefix}/${name}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-legacy-video-'));
  try {
    const local = path.join(dir, 'original');
    await storage.download(row.originalKey, local);
    const out = await transcodeVideo(resolveFfmpeg(t.config.media), local, dir, {
      keys: new HlsKeys(await resolveAppSecret(t.config, t.database)),
      mediaId,
      previewSeconds: row.previewSeconds,
    });
    for (const [name, file] of out.files)
      await storage.put(`${prefix}/${name}`, file, contentTypeOfKey(name));
    if (out.mp4) await storage.put(`${prefix}/web.mp4`, out.mp4, 'video/mp4');
    await t.database.db
      .update(media)
      .set({ info: out.info, webKey: out.mp4 ? `${prefix}/web.mp4` : null })
      .where(eq(media.id, mediaId));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
