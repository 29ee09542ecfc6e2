import { execFileSync } from 'node:child_process';
import { createDecipheriv } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, subscribe } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { cameraWebm } from '../../../test/media-fixtures.ts';
import { openSocket, type TestSocket, until } from '../../../test/sockets.ts';
import { makeCreator } from '../../payments/money.testkit.ts';

/**
 * Two server copies sharing PostgreSQL, Redis and LIVE_DIR (a shared file system, docs/deploy.md):
 * the creator's camera reaches copy one, a fan watches through copy two with no sticky session —
 * signatures and keys derive from the shared app secret, entitlement from the database, segments
 * from the shared directory. Runs where DATABASE_URL and REDIS_URL are set (CI), like
 * realtime/multi-server.test.ts.
 */
const shared = !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

describe.skipIf(!shared)('a live across two server copies', () => {
  let one: TestApp;
  let two: TestApp;
  let base1: string;
  let base2: string;
  const sockets: TestSocket[] = [];
  const liveDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-live-copies-'));

  beforeAll(async () => {
    one = await createTestApp({ LIVE_DIR: liveDir });
    two = await createTestApp({ LIVE_DIR: liveDir }, { databaseUrl: one.databaseUrl });
    base1 = await one.app.listen({ port: 0, host: '127.0.0.1' });
    base2 = await two.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await two?.stop();
    await one?.stop();
    fs.rmSync(liveDir, { recursive: true, force: true });
  });

  it('ingested on copy one, played (playlist, key, segments) and counted through copy two', async () => {
    const creator = await makeCreator(one);
    const fan = await createUser(one);
    await subscribe(one, fan.id, creator.id);
    const id = (
      await one.call(
        'lives.start',
        { title: 'Two copies', audience: 'subscribers', source: 'browser' },
        { token: creator.token },
      )
    ).body.live._id;
    const data = await cameraWebm(4, { audio: false });
    const cs = await openSocket(base1, creator.token, sockets);
    for (let i = 0; i < data.length; i += 64 * 1024)
      expect(await cs.emitWithAck('liveChunk', id, data.subarray(i, i + 64 * 1024))).toBe(true);

    // The fan's copy: the URL it signs, the playlist it serves, the key it derives.
    const get = (url: string, token?: string) =>
      fetch(`${base2}${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const url = (await two.call('lives.get', undefined, { token: fan.token, params: { id } })).body.playlist;
    expect(url).toBeTruthy();
    await until(async () => (await get(url as string, fan.token)).status === 200, 20_000);
    const playlist = await (await get(url as string, fan.token)).text();
    const keyUrl = /URI="([^"]+)"/.exec(playlist)?.[1] ?? '';
    const iv = Buffer.from(/IV=0x([0-9a-f]{32})/i.exec(playlist)?.[1] ?? '', 'hex');
    const segment = playlist.split('\n').find((l) => l.includes('/seg_')) ?? '';
    const key = Buffer.from(await (await get(keyUrl, fan.token)).arrayBuffer());
    expect(key.length).toBe(16);
    const body = Buffer.from(await (await get(segment)).arrayBuffer());
    const d = createDecipheriv('aes-128-cbc', key, iv);
    expect(Buffer.concat([d.update(body), d.final()])[0]).toBe(0x47);

    // The viewer on copy two is counted on copy one (the creator, on copy one, is not).
    const fs2 = await openSocket(base2, fan.token, sockets);
    expect(await cs.emitWithAck('watchLive', id)).toBe(true);
    expect(await fs2.emitWithAck('watchLive', id)).toBe(true);
    await until(
      async () =>
        (await one.call('lives.get', undefined, { token: creator.token, params: { id } })).body.live
          .viewers === 1,
    );
    await one.call('lives.end', undefined, { token: creator.token, params: { id } });
  }, 60_000);

  it('goes on when the creator reconnects to the other copy (a new recorder there), the recording in one piece', async () => {
    const creator = await makeCreator(one);
    const fan = await createUser(one);
    await subscribe(one, fan.id, creator.id);
    const id = (
      await one.call(
        'lives.start',
        { title: 'Reconnect', audience: 'subscribers', source: 'browser' },
        { token: creator.token },
      )
    ).body.live._id;
    // Two recorder runs (the browser starts a new MediaRecorder when its socket reconnects).
    const [first, second] = [1, 2].map((n) => {
      const file = path.join(liveDir, `run-${n}.webm`);
      execFileSync('ffmpeg', [
        ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=30', '-t', '4'],
        ...['-c:v', 'libvpx', '-deadline', 'realtime', file],
      ]);
      return fs.readFileSync(file);
    }) as [Buffer, Buffer];
    const send = async (socket: TestSocket, data: Buffer) => {
      const acks: boolean[] = [];
      for (let i = 0; i < data.length; i += 64 * 1024)
        acks.push(await socket.emitWithAck('liveChunk', id, data.subarray(i, i + 64 * 1024)));
      return acks;
    };
    const playlistFile = path.join(liveDir, id, 'index.m3u8');
    const segments = () =>
      fs.existsSync(playlistFile)
        ? [...fs.readFileSync(playlistFile, 'utf8').matchAll(/seg_(\d+)\.ts/g)].map((m) => Number(m[1]))
        : [];

    const onOne = await openSocket(base1, creator.token, sockets);
    expect((await send(onOne, first)).every(Boolean)).toBe(true);
    await until(async () => segments().length > 2, 20_000);
    // The connection to copy one drops; copy one stops its run (the live is not ended).
    onOne.disconnect();
    await until(async () => !one.services.liveMedia.isRunning(id), 10_000);
    const before = Math.max(...segments());

    const onTwo = await openSocket(base2, creator.token, sockets);
    // A chunk of the old recorder that was still in flight: copy two cannot decode it alone.
    expect(await onTwo.emitWithAck('liveChunk', id, first.subarray(64 * 1024, 128 * 1024))).toBe(false);
    // MediaRecorder may hand over the header's first byte alone (Chromium does).
    expect(await onTwo.emitWithAck('liveChunk', id, second.subarray(0, 1))).toBe(true);
    expect((await send(onTwo, second.subarray(1))).every(Boolean)).toBe(true);
    expect(two.services.liveMedia.isRunning(id)).toBe(true);
    // The same playlist goes on: later segment numbers, a discontinuity for the new timestamps.
    await until(async () => segments().some((n) => n > before + 1), 20_000);
    expect(fs.readFileSync(playlistFile, 'utf8')).toContain('#EXT-X-DISCONTINUITY');
    const live = (await one.call('lives.get', undefined, { token: fan.token, params: { id } })).body;
    expect(live.live.status).toBe('live');
    const playlist = await (
      await fetch(`${base1}${live.playlist}`, { headers: { authorization: `Bearer ${fan.token}` } })
    ).text();
    // (Served by the other copy, from the shared directory: the resumed run's segments.)
    const served = [...playlist.matchAll(/seg_(\d+)_[0-9a-f]{16}\.ts/g)].map((m) => Number(m[1]));
    expect(served.some((n) => n > before)).toBe(true);

    // Ended on copy two (where the run is); the replay's recording joins both runs.
    await two.call('lives.end', undefined, { token: creator.token, params: { id } });
    expect(two.services.liveMedia.recordingParts(id)).toHaveLength(2);
    const joined = (await two.services.liveMedia.recording(id)) ?? '';
    expect(joined).toMatch(/joined\.webm$/);
    const seconds = Number(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', joined])
        .toString()
        .trim(),
    );
    expect(seconds).toBeGreaterThan(7);
  }, 90_000);
});
