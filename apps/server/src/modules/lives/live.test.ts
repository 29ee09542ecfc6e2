import { createDecipheriv } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, subscribe, TEST_PASSWORD } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { cameraWebm } from '../../../test/media-fixtures.ts';
import { pushTestPattern } from '../../../test/rtmp-push.ts';
import { openSocket, record, type TestSocket, until } from '../../../test/sockets.ts';
import { ledgerHealth, makeCreator } from '../../payments/money.testkit.ts';

let t: TestApp;
let base: string;
let rtmpPort = 0;
/** Moves the server's clock (signed URL expiry); null is the real time. */
let clock: Date | null = null;
const sockets: TestSocket[] = [];
const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
beforeAll(async () => {
  rtmpPort = await freePort();
  t = await createTestApp(
    {
      EARNINGS_HOLD_DAYS: '0',
      LIVE_RTMP_PORT: String(rtmpPort),
      LIVE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'fv-live-')),
    },
    { now: () => clock ?? new Date() },
  );
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t?.stop();
});

type User = Awaited<ReturnType<typeof createUser>>;
const credit = (u: User, credits: number) =>
  t.services.wallet.grantCredits(u.id, credits, `test:${u.id}:${credits}`);
const goLive = (creator: User, input: Record<string, unknown> = {}) =>
  t.call(
    'lives.start',
    { title: 'Evening live', audience: 'subscribers', ...input },
    { token: creator.token },
  );
const get = (u: User, id: string) => t.call('lives.get', undefined, { token: u.token, params: { id } });
/** A GET of a (signed) HLS URL with `u`'s session token, or none. */
const fetchAs = (u: User | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: u ? { authorization: `Bearer ${u.token}` } : {} });
/** The live's playlist as `u` plays it: the signed, session-bound URL `lives.get` gives `u`. */
const playlistUrl = async (u: User, id: string) => {
  const url = (await get(u, id)).body.playlist;
  if (!url) throw new Error('no playlist for this viewer');
  return url;
};
const hls = async (u: User, id: string) => fetchAs(u, await playlistUrl(u, id));
/** The key and first segment URLs of a served playlist. */
const uris = (playlist: string) => ({
  key: /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)"/.exec(playlist)?.[1] ?? '',
  segment: playlist.split('\n').find((l) => l.includes('/seg_')) ?? '',
});

describe('going live', () => {
  it('lets creators go live once at a time; fans and bad input are refused', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    expect((await goLive(fan)).status).toBe(403);
    expect(
      (await t.call('lives.start', { title: 'x', audience: 'ticket' }, { token: creator.token })).status,
    ).toBe(400);
    const bad = await t.call(
      'lives.start',
      { title: '', audience: 'nobody' },
      { token: creator.token, lang: 'es' },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Algunos campos no son válidos. Revísalos.');
    const live = await goLive(creator, { goalCredits: 500, goalLabel: 'new lights' });
    expect(live.status).toBe(200);
    expect(live.body.live).toMatchObject({ status: 'live', goalCredits: 500, earnedCredits: 0 });
    expect(live.body.isOwner).toBe(true);
    expect((await goLive(creator)).body.code).toBe('LIVE_ALREADY_ON');
    expect((await t.call('lives.start', { title: 'x', audience: 'everyone' })).status).toBe(401);
    // Ending: not a fan, yes the creator; then a new one may start.
    const id = live.body.live._id;
    expect((await t.call('lives.end', undefined, { token: fan.token, params: { id } })).status).toBe(403);
    const ended = await t.call('lives.end', undefined, { token: creator.token, params: { id } });
    expect(ended.body.live.status).toBe('ended');
    expect((await goLive(creator)).status).toBe(200);
  });

  it('tells followers and subscribers through the job queue', async () => {
    const creator = await makeCreator(t);
    const [follower, subscriber, stranger] = [await createUser(t), await createUser(t), await createUser(t)];
    await t.call('user.follow', { creator: creator.username }, { token: follower.token });
    await subscribe(t, subscriber.id, creator.id);
    const live = await goLive(creator, { title: 'Surprise' });
    await t.jobs.drain();
    for (const [u, n] of [
      [follower, 1],
      [subscriber, 1],
      [stranger, 0],
    ] as const) {
      const list = await t.call('notifications.list', { page: 1 }, { token: u.token });
      const lives = list.body.notifications.filter((x: { kind: string }) => x.kind === 'live');
      expect(lives.length).toBe(n);
      if (n) expect(lives[0]?.payload.link).toBe(`/live/${live.body.live._id}`);
    }
    // A retried job (it failed half-way, or ran twice) does not notify anyone a second time.
    await t.services.lives.announce(live.body.live._id);
    const again = await t.call('notifications.list', { page: 1 }, { token: follower.token });
    expect(again.body.notifications.filter((x: { kind: string }) => x.kind === 'live').length).toBe(1);
  });
});

describe('who may watch', () => {
  it('subscribers-only: a subscriber watches, a stranger is offered to subscribe, staff see it', async () => {
    const creator = await makeCreator(t);
    const [sub, stranger, admin] = [
      await createUser(t),
      await createUser(t),
      await createUser(t, { roles: ['user', 'admin'] }),
    ];
    await subscribe(t, sub.id, creator.id);
    const id = (await goLive(creator)).body.live._id;
    const a = await get(sub, id);
    expect(a.body.access).toEqual({ allowed: true, reason: null });
    const url = await playlistUrl(sub, id);
    expect(url).toMatch(
      new RegExp(`^/api/v1/hls/live/${id}/live/index\\.m3u8\\?sid=.+&exp=\\d+&sig=[0-9a-f]{64}$`),
    );
    const b = await get(stranger, id);
    expect(b.body.access).toEqual({ allowed: false, reason: 'subscribe' });
    expect(b.body.playlist).toBeNull();
    // The subscriber's URL is bound to the subscriber's session: another session's token is refused
    // (a player without headers, Safari's native HLS, is the URL's own session while it is valid).
    expect((await fetchAs(stranger, url)).statusCode).toBe(403);
    expect((await fetchAs(sub, url)).statusCode).toBe(404); // allowed, nothing encoded yet
    expect((await fetchAs(sub, `/api/v1/hls/live/${id}/../../etc/passwd`)).statusCode).toBe(404);
    expect((await fetchAs(sub, `/api/v1/lives/${id}/hls/index.m3u8`)).statusCode).toBe(404);
    expect((await get(admin, id)).body.access.allowed).toBe(true);
    const adminList = await t.call('lives.now', undefined, { token: admin.token });
    expect(adminList.body.lives.some((l: { _id: string }) => l._id === id)).toBe(true);
    const strangerList = await t.call('lives.now', undefined, { token: stranger.token });
    expect(strangerList.body.lives.some((l: { _id: string }) => l._id === id)).toBe(false);
    // Admins end any live; the subscriber is refused afterwards.
    expect((await t.call('lives.end', undefined, { token: admin.token, params: { id } })).status).toBe(200);
    expect((await get(sub, id)).body.access.reason).toBe('ended');
    expect((await fetchAs(sub, url)).statusCode).toBe(403);
  });

  it('ticketed: charges the ticket once under concurrent clicks; the ledger stays balanced', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    await credit(fan, 100);
    const id = (await goLive(creator, { audience: 'ticket', ticketPrice: 30 })).body.live._id;
    expect((await get(fan, id)).body.access.reason).toBe('ticket');
    const clicks = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.call('lives.ticket', undefined, { token: fan.token, params: { id } }),
      ),
    );
    expect(clicks.every((c) => c.status === 200)).toBe(true);
    expect(clicks.reduce((n, c) => n + c.body.charged, 0)).toBe(30);
    expect((await t.call('wallet.get', undefined, { token: fan.token })).body.credits).toBe(70);
    expect((await get(fan, id)).body.access.allowed).toBe(true);
    expect((await get(creator, id)).body.live.earnedCredits).toBe(30);
    expect(
      (await t.call('lives.ticket', undefined, { token: creator.token, params: { id } })).body.code,
    ).toBe('CANNOT_PAY_YOURSELF');
    const poor = await createUser(t);
    expect((await t.call('lives.ticket', undefined, { token: poor.token, params: { id } })).body.code).toBe(
      'INSUFFICIENT_CREDITS',
    );
    expect((await ledgerHealth(t)).mismatches).toEqual([]);
    expect((await ledgerHealth(t)).totals.credits ?? 0).toBe(0);
  });
});

/**
 * The live is served like recorded video (media/hls, source `live`): a signed playlist bound to the
 * viewer's session, an AES-128 key behind the same checks on every request, encrypted segments.
 */
async function expectProtected(fan: User, id: string) {
  const url = await playlistUrl(fan, id);
  const served = await fetchAs(fan, url);
  expect(served.statusCode).toBe(200);
  expect(served.headers['cache-control']).toBe('private, no-store');
  const playlist = served.body;
  expect(playlist).toContain('#EXTM3U');
  const { key: keyUrl, segment } = uris(playlist);
  expect(keyUrl).toMatch(new RegExp(`^/api/v1/hls/live/${id}/live/key\\?sid=`));
  // Marked (ADR 0045): the fan's own keyed name of variant A or B.
  expect(segment).toMatch(new RegExp(`^/api/v1/hls/live/${id}/live/seg_\\d{5}_[0-9a-f]{16}\\.ts$`));
  const iv = Buffer.from(/IV=0x([0-9a-f]{32})/i.exec(playlist)?.[1] ?? '', 'hex');

  // The key opens the encrypted segment (AES-128-CBC): plain MPEG-TS starts with the sync byte.
  const key = await fetchAs(fan, keyUrl);
  expect(key.statusCode).toBe(200);
  expect(key.headers['cache-control']).toBe('private, no-store');
  const seg = await fetchAs(null, segment);
  expect(seg.statusCode).toBe(200);
  expect(seg.headers['content-type']).toBe('video/mp2t');
  const decipher = createDecipheriv('aes-128-cbc', key.rawPayload, iv);
  const plain = Buffer.concat([decipher.update(seg.rawPayload), decipher.final()]);
  expect(plain[0]).toBe(0x47);
  expect(seg.rawPayload[0] === 0x47 && seg.rawPayload[188] === 0x47).toBe(false);

  // Not subscribed: no URL of its own, and the fan's URLs refuse the stranger's session.
  const stranger = await createUser(t);
  expect((await get(stranger, id)).body.playlist).toBeNull();
  expect((await fetchAs(stranger, url)).statusCode).toBe(403);
  expect((await fetchAs(stranger, keyUrl)).statusCode).toBe(403);
  // Wrong session: the fan's own second session may not use the first one's URLs either.
  const again = await t.call('auth.login', { login: fan.username, password: TEST_PASSWORD });
  const second = { ...fan, token: (again.body as { token: string }).token };
  expect((await fetchAs(second, url)).statusCode).toBe(403);
  expect((await fetchAs(second, keyUrl)).statusCode).toBe(403);
  // Tampered and expired URLs.
  expect((await fetchAs(fan, url.replace(/exp=\d+/, 'exp=99999999999'))).statusCode).toBe(403);
  clock = new Date(Date.now() + 3600_000);
  try {
    expect((await fetchAs(fan, url)).statusCode).toBe(403);
    expect((await fetchAs(fan, keyUrl)).statusCode).toBe(403);
  } finally {
    clock = null;
  }
  // A lapsed subscription loses the playlist and the key at the next request.
  await t.database.session((exec) =>
    exec(`UPDATE subscriptions SET status = 'expired' WHERE fan_id = '${fan.id}'`),
  );
  expect((await fetchAs(fan, url)).statusCode).toBe(403);
  expect((await fetchAs(fan, keyUrl)).statusCode).toBe(403);
  await t.database.session((exec) =>
    exec(`UPDATE subscriptions SET status = 'active' WHERE fan_id = '${fan.id}'`),
  );
  expect((await fetchAs(fan, keyUrl)).statusCode).toBe(200);
}

describe('during a live', () => {
  it('chat, tips and gifts reach everyone in the room; moderation mutes, removes and bans', async () => {
    const creator = await makeCreator(t);
    const [fan, other, stranger] = [await createUser(t), await createUser(t), await createUser(t)];
    await subscribe(t, fan.id, creator.id);
    await subscribe(t, other.id, creator.id);
    await credit(fan, 200);
    const id = (await goLive(creator, { goalCredits: 100, goalLabel: 'a new lamp' })).body.live._id;
    const cs = await openSocket(base, creator.token, sockets);
    const fs1 = await openSocket(base, fan.token, sockets);
    const ss = await openSocket(base, stranger.token, sockets);
    expect(await cs.emitWithAck('watchLive', id)).toBe(true);
    expect(await fs1.emitWithAck('watchLive', id)).toBe(true);
    expect(await ss.emitWithAck('watchLive', id)).toBe(false);
    const chat = record(cs, 'liveChat');
    const support = record(cs, 'liveSupport');
    const strangerChat = record(ss, 'liveChat');
    // The creator is in the room too, but is not a viewer.
    await until(async () => (await get(creator, id)).body.live.viewers === 1);

    const sent = await t.call(
      'lives.chat',
      { text: 'hello from the front row' },
      { token: fan.token, params: { id } },
    );
    expect(sent.status).toBe(200);
    await until(() => chat.length === 1);
    expect(chat[0]?.message).toMatchObject({
      text: 'hello from the front row',
      user: { user: fan.username },
    });
    expect(
      (await t.call('lives.chat', { text: 'hi' }, { token: stranger.token, params: { id } })).status,
    ).toBe(403);

    const tip = await t.call(
      'tips.send',
      { creator: creator.username, credits: 25, live: id },
      { token: fan.token },
    );
    expect(tip.body.charged).toBe(25);
    const gift = await t.call(
      'gifts.send',
      { creator: creator.username, kind: 'flowers', live: id },
      { token: fan.token },
    );
    expect(gift.status).toBe(200);
    await until(() => support.length === 2);
    expect(support[0]).toMatchObject({ kind: 'tip', fan: fan.username, credits: 25, earnedCredits: 25 });
    expect((await get(fan, id)).body.live.earnedCredits).toBe(25 + gift.body.charged);
    // A stranger may not tip on a live they may not watch; a tip to someone else's live is refused.
    await credit(stranger, 50);
    expect(
      (
        await t.call(
          'tips.send',
          { creator: creator.username, credits: 5, live: id },
          { token: stranger.token },
        )
      ).body.code,
    ).toBe('LIVE_NOT_ALLOWED');
    expect(strangerChat).toEqual([]);

    // Moderation: only the creator (or staff).
    const msgId = sent.body.message._id;
    const removeAs = (u: User) =>
      t.call('lives.removeChat', undefined, { token: u.token, params: { id, message: msgId } });
    expect((await removeAs(other)).status).toBe(403);
    expect((await removeAs(creator)).status).toBe(200);
    expect((await get(other, id)).body.chat.some((m: { _id: string }) => m._id === msgId)).toBe(false);
    const mod = (u: User, action: string, who = fan.username) =>
      t.call('lives.moderate', { user: who, action }, { token: u.token, params: { id } });
    expect((await mod(other, 'mute')).status).toBe(403);
    expect((await mod(creator, 'mute')).status).toBe(200);
    expect(
      (await t.call('lives.chat', { text: 'again' }, { token: fan.token, params: { id } })).body.code,
    ).toBe('LIVE_MUTED');
    const banned = record(fs1, 'liveBanned');
    const fanUrl = await playlistUrl(fan, id);
    expect((await mod(creator, 'ban')).status).toBe(200);
    await until(() => banned.length === 1);
    expect((await get(fan, id)).body.access.reason).toBe('banned');
    expect((await fetchAs(fan, fanUrl)).statusCode).toBe(403);
    expect((await mod(creator, 'ban', creator.username)).status).toBe(403);
    expect((await mod(creator, 'unban')).status).toBe(200);
    expect((await get(fan, id)).body.access.allowed).toBe(true);

    // The live's earnings show in the creator's statistics under "live"; the ledger stays balanced.
    const health = await ledgerHealth(t);
    expect(health.mismatches).toEqual([]);
    const earnings = await t.call('creator.earnings', { period: 'all' }, { token: creator.token });
    const spent = (25 + gift.body.charged) * t.config.money.creditValueCents;
    expect(earnings.body.sales.live).toEqual({ count: 2, amount: spent });
    expect(earnings.body.sales.tips.amount).toBe(0);
    expect(earnings.body.earnings.live).toBeGreaterThan(0);
    expect(earnings.body.earnings.live).toBeLessThan(spent);
  });
});

describe('stream keys', () => {
  it('shows the key once, stores only its hash, revokes it; fans may not have one', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    expect((await t.call('lives.createStreamKey', undefined, { token: fan.token })).status).toBe(403);
    expect((await t.call('lives.streamKey', undefined, { token: creator.token })).body.exists).toBe(false);
    const made = await t.call('lives.createStreamKey', undefined, { token: creator.token });
    expect(made.body.key).toMatch(/^fv_/);
    const stored = await t.database.session((exec) =>
      exec(`SELECT key_hash FROM live_stream_keys WHERE creator_id = '${creator.id}'`),
    );
    expect(stored[0]?.key_hash).not.toContain(made.body.key);
    expect((await t.call('lives.streamKey', undefined, { token: creator.token })).body.exists).toBe(true);
    // The key finds the creator's RTMP live only.
    const live = await goLive(creator, { source: 'rtmp' });
    expect(await t.services.lives.liveForStreamKey(made.body.key)).toBe(live.body.live._id);
    expect(await t.services.lives.liveForStreamKey('fv_wrong')).toBeUndefined();
    await t.call('lives.revokeStreamKey', undefined, { token: creator.token });
    expect(await t.services.lives.liveForStreamKey(made.body.key)).toBeUndefined();
  });
});

describe('media path', () => {
  it("turns the creator's WebM chunks into HLS an entitled viewer can fetch; only the creator may send", async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    await subscribe(t, fan.id, creator.id);
    const id = (await goLive(creator)).body.live._id;
    const data = await cameraWebm(4, { bitrate: '800k' });
    const fanSocket = await openSocket(base, fan.token, sockets);
    expect(await fanSocket.emitWithAck('liveChunk', id, data.subarray(0, 1000))).toBe(false);
    const cs = await openSocket(base, creator.token, sockets);
    for (let i = 0; i < data.length; i += 64 * 1024) {
      expect(await cs.emitWithAck('liveChunk', id, data.subarray(i, i + 64 * 1024))).toBe(true);
    }
    await until(async () => (await hls(fan, id)).statusCode === 200, 20_000);
    await expectProtected(fan, id);
    await t.call('lives.end', undefined, { token: creator.token, params: { id } });
    expect(await t.services.liveMedia.recording(id)).toBeDefined();
    // Replay: the recording becomes a post that goes through processing and review.
    expect(
      (await t.call('lives.replay', { text: 'Last night' }, { token: fan.token, params: { id } })).status,
    ).toBe(403);
    const replay = await t.call(
      'lives.replay',
      { text: 'Last night' },
      { token: creator.token, params: { id } },
    );
    expect(replay.status).toBe(200);
    expect((await get(creator, id)).body.live.replayPost).toBe(replay.body.post);
    expect((await t.call('lives.replay', {}, { token: creator.token, params: { id } })).status).toBe(409);
  }, 60_000);
});

describe('RTMP ingest (OBS)', () => {
  /** ffmpeg pushing a test pattern, as OBS would; answers its exit code. */
  const push = (key: string, seconds: number) =>
    new Promise<number>((resolve) => {
      const p = pushTestPattern(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`, seconds);
      p.on('close', (code) => resolve(code ?? 1));
    });

  it("a push with the stream key feeds the creator's RTMP live; a wrong key is refused", async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    await subscribe(t, fan.id, creator.id);
    const { key } = (await t.call('lives.createStreamKey', undefined, { token: creator.token })).body;
    const id = (await goLive(creator, { source: 'rtmp' })).body.live._id;
    const wrong = await push('fv_not-a-key', 5);
    expect(wrong).not.toBe(0);
    expect((await hls(fan, id)).statusCode).toBe(404);
    const pushing = push(key, 12);
    await until(async () => (await hls(fan, id)).statusCode === 200, 20_000);
    const { key: keyUrl, segment } = uris((await hls(fan, id)).body);
    const segmentBody = (await fetchAs(null, segment)).rawPayload;
    // Encrypted, not plain MPEG-TS (sync bytes every 188 bytes; one random byte may be 0x47).
    expect([0, 188, 376].every((at) => segmentBody[at] === 0x47)).toBe(false);
    expect((await fetchAs(fan, keyUrl)).rawPayload.length).toBe(16);
    expect(await pushing).toBe(0);
    await t.call('lives.end', undefined, { token: creator.token, params: { id } });
    expect(await t.services.liveMedia.recording(id)).toMatch(/recording\.flv$/);
  }, 60_000);
});
