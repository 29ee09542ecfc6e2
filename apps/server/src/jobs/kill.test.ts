import fs from 'node:fs';
import type { Post } from '@fanverse/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore, gatedFfmpeg, type Store, until } from '../../test/child-server.ts';
import { CERTIFIED_FORM as CERT, createUser, subscribe } from '../../test/factories.ts';
import { mp4, postForm } from '../../test/media-fixtures.ts';
import { openSocket, record, type TestSocket } from '../../test/sockets.ts';

/**
 * A real server process (apps/server/src/main.ts) killed with SIGKILL in the middle of background
 * work, then started again on the same data: the jobs survive in pg-boss and the restarted copy
 * finishes them. On PostgreSQL (DATABASE_URL) the restarted copy retries a job once its expiry
 * (JOBS_EXPIRE_SECONDS) says its worker died; on PGlite (the default, files in a data directory of
 * the test's own) it retries at start, the database being one process's own. PGlite can't be opened
 * while the server runs, so there the test watches through the server's HTTP API and counts after a
 * kill, when the files are free.
 */
const EXPIRE = { JOBS_EXPIRE_SECONDS: '3' };

const stores: Store[] = [];
const sockets: TestSocket[] = [];
/** A store of the test's own, closed (its server processes killed) after the test whatever happens. */
function newStore(): Store {
  const store = createStore();
  stores.push(store);
  return store;
}
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  for (const store of stores.splice(0)) await store.close();
});

describe(`killing the server in the middle of background work (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('a mass message to 500 subscribers reaches each exactly once after SIGKILL and a restart', async () => {
    const s = newStore();
    // Prepare the store (a creator and 500 subscribers) with a copy that has no workers.
    const t = await s.prepare(EXPIRE);
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    const fans = [];
    for (let i = 0; i < 500; i++) fans.push(await createUser(t));
    for (const f of fans) await subscribe(t, f.id, creator.id);
    await t.stop();

    const stored = async () =>
      Number(
        (
          await s.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE from_id = $1`, [
            creator.id,
          ])
        )[0]!.n,
      );
    // The creator's conversations: one per subscriber who has the message (read through the API).
    const conversations = async (base: string) => {
      const res = await fetch(`${base}/api/v1/message/contacts`, { headers: { a1sledom: creator.token } });
      if (!res.ok) return 0;
      return ((await res.json()) as { statistics: { total: number } }).statistics.total;
    };

    // Some subscribers are online (the first ones stored, likely in the first batch, and a spread):
    // the first message one of them receives says the job is delivering; the server dies right then.
    const first = await s.start(EXPIRE);
    const online = fans.filter((_, i) => i < 20 || i % 25 === 0);
    let delivered = 0;
    for (const f of online) (await openSocket(first.base, f.token, sockets)).on('message', () => delivered++);
    const sent = await fetch(`${first.base}/api/v1/message/mass`, {
      method: 'POST',
      headers: { a1sledom: creator.token, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'To all 500', messageUUID: 'kill-1' }),
    });
    expect(await sent.json()).toEqual({ success: true, sent: 500 });
    await until(() => delivered > 0, 120_000, 'first messages');
    await first.kill();
    for (const socket of sockets.splice(0)) socket.disconnect();
    const atKill = await stored();
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(500);

    const second = await s.start(EXPIRE);
    await until(
      async () => (s.kind === 'postgres' ? await stored() : await conversations(second.base)) === 500,
      120_000,
      'all 500 messages',
    );
    if (s.kind === 'pglite') await second.kill();
    const perFan = await s.query<{ to_id: string; n: number }>(
      `SELECT to_id, count(*)::int AS n FROM messages WHERE from_id = $1 GROUP BY to_id`,
      [creator.id],
    );
    expect(perFan).toHaveLength(500);
    expect(perFan.every((r) => r.n === 1)).toBe(true);
    expect(new Set(perFan.map((r) => r.to_id))).toEqual(new Set(fans.map((f) => f.id)));
  }, 300_000);

  it("a video's processing killed with SIGKILL finishes after a restart, and the creator sees it end", async () => {
    const s = newStore();
    const t = await s.prepare(EXPIRE);
    const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
    await t.stop();
    // ffmpeg waits at a gate: the first server is killed while the media job surely runs.
    const ffmpeg = gatedFfmpeg(s.dataDir);
    const env = { ...EXPIRE, FFMPEG_PATH: ffmpeg.path };

    const first = await s.start(env);
    const res = await postForm(first.base, '/api/v1/posts', creator.token, { ...CERT, message: 'killed' }, [
      { name: 'clip.mp4', data: await mp4(2), type: 'video/mp4' },
    ]);
    expect(res.status).toBe(200);
    const id = (res.body.post as Post)._id;
    await until(() => fs.existsSync(ffmpeg.started), 120_000, 'media job started');
    await first.kill();
    const [atKill] = await s.query<{ status: string }>(
      `SELECT admin_status::text AS status FROM posts WHERE id = $1`,
      [id],
    );
    expect(atKill!.status).toBe('processing');
    const job = await s.query(`SELECT 1 FROM pgboss.job WHERE name = 'media.process' AND state = 'active'`);
    expect(job).toHaveLength(1);

    // The creator's editor on the restarted server; the gate opens once the socket is connected.
    const second = await s.start(env);
    const socket = await openSocket(second.base, creator.token, sockets);
    const ended = record(socket, 'postProgressEnd');
    const failed = record(socket, 'postProgressError');
    fs.writeFileSync(ffmpeg.gate, '');
    await until(() => ended.some((e) => e.postId === id) || failed.length > 0, 120_000, 'postProgressEnd');
    expect(failed).toEqual([]);
    const own = await fetch(`${second.base}/api/v1/posts?post=${id}`, {
      headers: { a1sledom: creator.token },
    });
    const post = ((await own.json()) as { posts: Post[] }).posts[0]!;
    expect(post.adminStatus).toBe('new');
    expect(post.media.every((m) => m.status === 'ready')).toBe(true);
    // Restarted from the original: the whole encrypted HLS ladder is there to play.
    const play = await fetch(`${second.base}/api/v1/media/${post.media[0]!._id}/play`, {
      headers: { a1sledom: creator.token },
    });
    const body = (await play.json()) as { hls: string | null; renditions: unknown[] };
    expect(body.hls).toContain('/master.m3u8?');
    expect(body.renditions.length).toBeGreaterThan(0);
    const master = await fetch(`${second.base}${body.hls}`, { headers: { a1sledom: creator.token } });
    expect(master.status).toBe(200);
  }, 300_000);
});
