import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/harness.ts';
import { mp4 } from '../../../test/media-fixtures.ts';
import { approvedVideoPost, publishApproved } from '../../../test/video-post.ts';
import { EVERYONE } from '../../access/index.ts';
import { resolveAppSecret } from '../../lib/secret.ts';
import { MP4_FALLBACK_MAX_SECONDS } from '../transcode.ts';
import { HlsSigner } from './signing.ts';

/**
 * Visitors (no session) play videos free to everyone through the HLS player (ADR 0038): playlists
 * and key are signed for EVERYONE and answered only while the video is in content free to everyone.
 */
let t: TestApp;
let base: string;
let get: (url: string, token?: string) => Promise<Response>;
let freeId: string;
let creator: Awaited<ReturnType<typeof createUser>>;
let signer: HlsSigner;

/** An approved post of `owner` holding a short clip; its media id. */
async function videoPost(owner: { token: string }, fields: Record<string, string>): Promise<string> {
  const post = await publishApproved(t, base, owner, fields, [{ name: 'clip.mp4', data: await mp4(3) }]);
  return post.media[0]?._id as string;
}

/** Visitor URLs as media.play would sign them (or as someone forging them would). */
const visitorUrl = (id: string, rendition: string, target: 'master' | 'playlist' | 'key') => {
  const file = target === 'master' ? 'master.m3u8' : target === 'playlist' ? 'index.m3u8' : 'key';
  const r = target === 'master' ? '' : `/${rendition}`;
  const q = signer.query({ kind: 'video', id, rendition, target, sessionId: EVERYONE });
  return `/api/v1/hls/video/${id}${r}/${file}?${q}`;
};

beforeAll(async () => {
  // Longer than the MP4 fallback: only HLS can play it.
  const setup = await approvedVideoPost({ visibility: 'free' }, [
    { name: 'long.mp4', data: await mp4(MP4_FALLBACK_MAX_SECONDS + 4) },
  ]);
  ({ t, base, get, creator } = setup);
  freeId = setup.post.media[0]?._id as string;
  signer = new HlsSigner(await resolveAppSecret(t.config, t.database), { ttlSeconds: 600 });
}, 300_000);
afterAll(() => t.stop());

describe('a visitor and HLS', () => {
  it('plays a long free video: master, playlist, key and segments answer without a session', async () => {
    const play = await t.call('media.play', undefined, { params: { id: freeId } });
    expect(play.status).toBe(200);
    expect(play.body.mp4).toBeNull();
    expect(play.body.duration).toBeGreaterThan(MP4_FALLBACK_MAX_SECONDS);
    expect(play.body.hls).toContain(`sid=${EVERYONE}`);
    const master = await get(play.body.hls as string);
    expect(master.status).toBe(200);
    const variant = (await master.text()).split('\n').find((l) => l && !l.startsWith('#')) as string;
    expect(variant).toContain(`sid=${EVERYONE}`);
    const playlist = await get(variant);
    expect(playlist.status).toBe(200);
    const text = await playlist.text();
    const keyUrl = /URI="([^"]+)"/.exec(text)?.[1] as string;
    const key = await get(keyUrl);
    expect(key.status).toBe(200);
    expect(Buffer.from(await key.arrayBuffer()).length).toBe(16);
    const segments = text.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(segments.length).toBeGreaterThan(10);
    expect((await get(segments[0] as string)).status).toBe(200);
    expect((await get(segments.at(-1) as string)).status).toBe(200);
    // A mark would name no one: a visitor's playlist makes no serve record (ADR 0041).
    const serves = await t.database.session((exec) =>
      exec(`SELECT count(*)::int AS n FROM video_serves WHERE media_id = '${freeId}'`),
    );
    expect(Number((serves[0] as { n: number }).n)).toBe(0);
  });

  it('loses the visitor URLs when the post stops being free to everyone', async () => {
    const play = await t.call('media.play', undefined, { params: { id: freeId } });
    const master = play.body.hls as string;
    expect((await get(master)).status).toBe(200);
    await t.database.session((exec) =>
      exec(
        `UPDATE posts SET visibility = 'subscribers' WHERE id IN (SELECT post_id FROM post_media WHERE media_id = '${freeId}')`,
      ),
    );
    try {
      expect((await get(master)).status).toBe(403);
      expect((await get(visitorUrl(freeId, '240p', 'key'))).status).toBe(403);
      expect((await t.call('media.play', undefined, { params: { id: freeId } })).status).toBe(401);
    } finally {
      await t.database.session((exec) =>
        exec(
          `UPDATE posts SET visibility = 'free' WHERE id IN (SELECT post_id FROM post_media WHERE media_id = '${freeId}')`,
        ),
      );
    }
  });

  it("a visitor-signed playlist or key of a subscribers' or locked pay-per-view video is refused", async () => {
    for (const fields of [{ visibility: 'subscribers' }, { visibility: 'ppv', price: '5' }] as Record<
      string,
      string
    >[]) {
      const id = await videoPost(creator, fields);
      // The visitor's play answer stays the sign-in question (the blurred poster shows).
      expect((await t.call('media.play', undefined, { params: { id } })).status).toBe(401);
      for (const target of ['master', 'playlist', 'key'] as const)
        expect((await get(visitorUrl(id, '240p', target))).status, `${fields.visibility} ${target}`).toBe(
          403,
        );
      // A signed-in fan's token does not turn a visitor URL into theirs.
      const fan = await createUser(t);
      expect((await get(visitorUrl(id, '240p', 'key'), fan.token)).status).toBe(403);
    }
  }, 120_000);

  it('refuses a free video of a deleted or suspended creator', async () => {
    for (const column of ['deleted_at', 'suspended_at']) {
      const other = await createUser(t, { roles: ['user', 'creator'], verified: true });
      const id = await videoPost(other, { visibility: 'free' });
      expect((await get(visitorUrl(id, '240p', 'key'))).status).toBe(200);
      await t.database.session((exec) => exec(`UPDATE users SET ${column} = now() WHERE id = '${other.id}'`));
      expect((await t.call('media.play', undefined, { params: { id } })).status, column).toBe(401);
      for (const target of ['master', 'playlist', 'key'] as const)
        expect((await get(visitorUrl(id, '240p', target))).status, `${column} ${target}`).toBe(403);
    }
  }, 120_000);

  it('live streams never answer a visitor URL', async () => {
    const q = signer.query({
      kind: 'live',
      id: freeId,
      rendition: '-',
      target: 'master',
      sessionId: EVERYONE,
    });
    expect((await get(`/api/v1/hls/live/${freeId}/master.m3u8?${q}`)).status).toBe(403);
  });
});
