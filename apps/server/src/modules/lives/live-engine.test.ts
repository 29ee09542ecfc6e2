import { type ChildProcess, spawn } from 'node:child_process';
import { createDecipheriv } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, subscribe } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { pushTestPattern } from '../../../test/rtmp-push.ts';
import { until } from '../../../test/sockets.ts';
import { NginxRtmpControl, nginxControlServer, nginxRtmpConfig } from '../../media/live/nginx-rtmp.ts';
import { makeCreator } from '../../payments/money.testkit.ts';

/**
 * LIVE_ENGINE=nginx-rtmp (ADR 0040) with a real nginx and Debian's RTMP module: an encoder's
 * publish is checked by the app (on_publish with the engine secret), nginx packages the stream into
 * encrypted HLS under the live's id, and viewers play it through the app's protected delivery
 * (entitlement on every playlist and key request). Skipped where nginx or the module is missing
 * (.ci/run installs them).
 */
const NGINX = '/usr/sbin/nginx';
const MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';
const available = fs.existsSync(NGINX) && fs.existsSync(MODULE);

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

describe.skipIf(!available)('an RTMP live on nginx-rtmp (LIVE_ENGINE)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-live-engine-'));
  const hlsDir = path.join(root, 'hls');
  const recordDir = path.join(root, 'rec');
  const secret = 'engine-secret-0123456789';
  let t: TestApp;
  let base: string;
  let rtmpPort: number;
  let controlPort: number;
  let nginx: ChildProcess | undefined;

  beforeAll(async () => {
    fs.mkdirSync(hlsDir);
    fs.mkdirSync(recordDir);
    rtmpPort = await freePort();
    controlPort = await freePort();
    t = await createTestApp({
      LIVE_DIR: path.join(root, 'builtin'),
      LIVE_ENGINE: 'nginx-rtmp',
      LIVE_ENGINE_SECRET: secret,
      LIVE_ENGINE_HLS_DIR: hlsDir,
      LIVE_ENGINE_RECORD_DIR: recordDir,
      LIVE_ENGINE_RELAY_URL: `rtmp://127.0.0.1:${rtmpPort}/hls`,
      LIVE_ENGINE_CONTROL_URL: `http://127.0.0.1:${controlPort}`,
      LIVE_SEGMENT_SECONDS: '1',
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const conf = path.join(root, 'nginx.conf');
    fs.writeFileSync(
      conf,
      [
        `load_module ${MODULE};`,
        // One process as the test's user (no worker user switch), in the foreground.
        'daemon off;',
        'master_process off;',
        `pid ${path.join(root, 'nginx.pid')};`,
        `error_log ${path.join(root, 'error.log')} warn;`,
        'events { worker_connections 64; }',
        nginxRtmpConfig({
          listen: `127.0.0.1:${rtmpPort}`,
          onPublish: `${base}/api/v1/lives/engine/publish?secret=${secret}`,
          hlsDir,
          recordDir,
          segmentSeconds: 1,
        }),
        `http { access_log off; ${nginxControlServer(`127.0.0.1:${controlPort}`)} }`,
      ].join('\n'),
    );
    nginx = spawn(NGINX, ['-p', root, '-e', path.join(root, 'error.log'), '-c', conf], { stdio: 'ignore' });
    await until(
      () =>
        new Promise<boolean>((resolve) => {
          const s = net.connect(rtmpPort, '127.0.0.1', () => {
            s.end();
            resolve(true);
          });
          s.on('error', () => resolve(false));
        }),
      10_000,
    );
  });
  afterAll(async () => {
    nginx?.kill('SIGTERM');
    await t?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const publishCheck = (query: string, form: Record<string, string>) =>
    fetch(`${base}/api/v1/lives/engine/publish${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
    });

  it('refuses the publish check without the engine secret or with an unknown key', async () => {
    const creator = await makeCreator(t);
    const { key } = (await t.call('lives.createStreamKey', undefined, { token: creator.token })).body;
    await t.call(
      'lives.start',
      { title: 'Engine', audience: 'subscribers', source: 'rtmp' },
      { token: creator.token },
    );
    expect((await publishCheck('', { app: 'live', name: key })).status).toBe(403);
    expect((await publishCheck('?secret=wrong-secret-0123456789', { app: 'live', name: key })).status).toBe(
      403,
    );
    expect((await publishCheck(`?secret=${secret}`, { app: 'live', name: 'fv_unknown' })).status).toBe(403);
    const ok = await publishCheck(`?secret=${secret}`, { app: 'live', name: key });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toMatch(
      new RegExp(`^rtmp://127\\.0\\.0\\.1:${rtmpPort}/hls/[0-9a-f-]{36}$`),
    );
    await t.call('lives.end', undefined, {
      token: creator.token,
      params: { id: (ok.headers.get('location') ?? '').split('/').at(-1) ?? '' },
    });
  });

  it('an encoder with the key is packaged by nginx and played through the protected delivery; a wrong key is dropped', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    const outsider = await createUser(t);
    await subscribe(t, fan.id, creator.id);
    const { key } = (await t.call('lives.createStreamKey', undefined, { token: creator.token })).body;
    const id = (
      await t.call(
        'lives.start',
        { title: 'OBS', audience: 'subscribers', source: 'rtmp' },
        { token: creator.token },
      )
    ).body.live._id;

    // A wrong key: nginx closes the encoder (ffmpeg fails) and writes nothing.
    const wrong = pushTestPattern(`rtmp://127.0.0.1:${rtmpPort}/live/fv_wrong`, 3);
    const wrongCode = await new Promise<number | null>((resolve) => wrong.on('close', resolve));
    expect(wrongCode).not.toBe(0);
    expect(fs.readdirSync(hlsDir)).toEqual([]);

    const push = pushTestPattern(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`, 12);
    try {
      const url = (await t.call('lives.get', undefined, { token: fan.token, params: { id } })).body
        .playlist as string;
      expect(url).toBeTruthy();
      const get = (u: string, token?: string) =>
        fetch(`${base}${u}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      let playlist = '';
      await until(async () => {
        const r = await get(url, fan.token);
        playlist = r.status === 200 ? await r.text() : '';
        return /seg_\d+\.ts/.test(playlist);
      }, 30_000);
      // The engine's files are named by the live's id, never by the stream key.
      expect(fs.readdirSync(hlsDir)).toEqual([id]);
      expect(playlist).not.toContain(key);
      const keyUrl = /URI="([^"]+)"/.exec(playlist)?.[1] ?? '';
      expect(keyUrl).toContain(`/api/v1/hls/live/${id}/live/key?`);
      const iv = Buffer.from(/IV=0x([0-9a-f]{32})/i.exec(playlist)?.[1] ?? '', 'hex');
      const segment = playlist.split('\n').find((l) => /\/seg_\d+\.ts$/.test(l)) ?? '';
      const aes = Buffer.from(await (await get(keyUrl, fan.token)).arrayBuffer());
      expect(aes.length).toBe(16);
      const body = Buffer.from(await (await get(segment)).arrayBuffer());
      const d = createDecipheriv('aes-128-cbc', aes, iv);
      expect(Buffer.concat([d.update(body), d.final()])[0]).toBe(0x47); // MPEG-TS sync byte

      // Someone not subscribed gets no playlist URL, and the fan's URLs are bound to the fan's session.
      const refused = (await t.call('lives.get', undefined, { token: outsider.token, params: { id } })).body;
      expect(refused.access.allowed).toBe(false);
      expect(refused.playlist).toBeNull();
      expect((await get(url, outsider.token)).status).toBe(403);
      expect((await get(keyUrl, outsider.token)).status).toBe(403);
    } finally {
      push.kill('SIGINT');
      await new Promise((resolve) => push.on('close', resolve));
    }
    // The engine kept the recording for the replay.
    await until(async () => fs.existsSync(path.join(recordDir, `${id}.flv`)), 10_000);
    await t.call('lives.end', undefined, { token: creator.token, params: { id } });
    const url = (await t.call('lives.get', undefined, { token: fan.token, params: { id } })).body.playlist;
    expect(url).toBeNull();
  }, 90_000);

  /** Starts an RTMP live with a fresh stream key; answers the live's id and the key. */
  async function rtmpLive(creator: { token: string }) {
    const { key } = (await t.call('lives.createStreamKey', undefined, { token: creator.token })).body;
    const id = (
      await t.call(
        'lives.start',
        { title: 'OBS', audience: 'everyone', source: 'rtmp' },
        { token: creator.token },
      )
    ).body.live._id as string;
    return { id, key: key as string };
  }
  const closed = (p: ChildProcess) =>
    new Promise<number | null>((resolve) =>
      p.exitCode !== null ? resolve(p.exitCode) : p.on('close', (code) => resolve(code)),
    );
  /** The segment numbers of the engine's playlist of this live (empty while there is none). */
  const enginePlaylist = (id: string) => {
    const file = path.join(hlsDir, id, 'index.m3u8');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  };
  const segmentsOf = (id: string) => {
    const text = enginePlaylist(id);
    return [...text.matchAll(/^(\d+)\.ts$/gm)].map((m) => Number(m[1]));
  };
  /** The file name of the newest AES key in the engine's playlist of this live. */
  const keyOf = (id: string) => [...enginePlaylist(id).matchAll(/URI="([^"]+)"/g)].at(-1)?.[1];
  const control = () => new NginxRtmpControl(`http://127.0.0.1:${controlPort}`);

  it.each([
    ['its creator', 'creator'],
    ['an admin', 'admin'],
  ] as const)(
    'ending the live (by %s) drops the encoder, and its reconnect is refused',
    async (_l, who) => {
      const creator = await makeCreator(t);
      const admin = await createUser(t, { roles: ['admin', 'user'] });
      const { id, key } = await rtmpLive(creator);
      // Far longer than the test may last: only the engine hanging up ends this ffmpeg.
      const push = pushTestPattern(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`, 600);
      const exit = closed(push);
      try {
        await until(async () => segmentsOf(id).length > 0, 30_000);
        expect((await control().publishers()).map((p) => p.name)).toEqual(expect.arrayContaining([key, id]));
        const token = who === 'creator' ? creator.token : admin.token;
        const ended = await t.call('lives.end', undefined, { token, params: { id } });
        expect(ended.status).toBe(200);
        expect(ended.body.live.status).toBe('ended');
        // The job asked nginx to drop the publisher: ffmpeg sees the server hang up and fails.
        expect(await exit).not.toBe(0);
        expect((await control().publishers()).map((p) => p.name)).not.toContain(key);
        // OBS reconnecting with the same key: refused, the live is over.
        const again = pushTestPattern(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`, 600);
        expect(await closed(again)).not.toBe(0);
      } finally {
        push.kill('SIGKILL');
      }
    },
    90_000,
  );

  it('an encoder cut off and reconnecting with the same key continues the same live (stream key unchanged, new AES key)', async () => {
    const creator = await makeCreator(t);
    const fan = await createUser(t);
    const { id, key } = await rtmpLive(creator);
    const first = pushTestPattern(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`, 600);
    await until(async () => segmentsOf(id).length >= 2, 30_000);
    // A network cut: the encoder vanishes without closing the stream.
    first.kill('SIGKILL');
    await closed(first);
    const before = Math.max(...segmentsOf(id));
    const keyBefore = keyOf(id);
    expect(keyBefore).toBeDefined();
    // The creator's stream key is the same one (per creator, shown once): OBS reconnects with it.
    expect((await t.call('lives.streamKey', undefined, { token: creator.token })).body.exists).toBe(true);
    const second = pushTestPattern(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`, 600);
    try {
      await until(async () => Math.max(...segmentsOf(id)) > before + 1, 30_000);
      // nginx made a new AES key for the new publish (the served playlist follows it, below).
      expect(keyOf(id)).not.toBe(keyBefore);
      // The same live, still on; the engine's files still under its id only.
      const live = (await t.call('lives.get', undefined, { token: fan.token, params: { id } })).body;
      expect(live.live.status).toBe('live');
      expect(fs.readdirSync(hlsDir)).toContain(id);
      // The fan's player goes on: the served playlist lists the new segments, and its key decrypts them.
      const get = (u: string, token?: string) =>
        fetch(`${base}${u}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      const playlist = await (await get(live.playlist as string, fan.token)).text();
      const numbers = [...playlist.matchAll(/\/seg_(\d+)\.ts$/gm)].map((m) => Number(m[1]));
      expect(Math.max(...numbers)).toBeGreaterThan(before);
      const keyUrl = /URI="([^"]+)"/.exec(playlist)?.[1] ?? '';
      const iv = Buffer.from(/IV=0x([0-9a-f]{32})/i.exec(playlist)?.[1] ?? '', 'hex');
      const segment =
        playlist
          .split('\n')
          .filter((l) => /\/seg_\d+\.ts$/.test(l))
          .at(-1) ?? '';
      const aes = Buffer.from(await (await get(keyUrl, fan.token)).arrayBuffer());
      const body = Buffer.from(await (await get(segment)).arrayBuffer());
      const d = createDecipheriv('aes-128-cbc', aes, iv);
      expect(Buffer.concat([d.update(body), d.final()])[0]).toBe(0x47);
    } finally {
      second.kill('SIGKILL');
      await closed(second);
      await t.call('lives.end', undefined, { token: creator.token, params: { id } });
    }
  }, 90_000);
});
