import { execFile } from 'node:child_process';
import { createDecipheriv } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCreator } from '../src/payments/money.testkit.ts';
import { createUser, subscribe } from './factories.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { postForm } from './media-fixtures.ts';
import { openSocket, type TestSocket, until } from './sockets.ts';

/**
 * The traceable mark on lives (ADR 0045), through the real app: the creator's browser stream (a
 * synthetic WebM sent over the socket at its own pace, as MediaRecorder does) is encoded in A/B
 * variants; two fans' players fetch their own playlists (other keyed segment names) and segments
 * as the live goes; one fan's segments, decrypted and joined, then re-encoded at a smaller size, a
 * lower bitrate and another frame rate (a screen recording), name that fan; the unmarked stream
 * names nobody. Small pictures (320×180): the machine encodes the live twice in real time.
 */
const run = promisify(execFile);
const SECONDS = 26;
let t: TestApp;
let base: string;
let dir: string;
let source: string;
type Who = Awaited<ReturnType<typeof createUser>>;
let creator: Who;
let fanA: Who;
let fanB: Who;
let liveId: string;
const sockets: TestSocket[] = [];
/** What a fan's player fetched: segment number → its keyed name and encrypted bytes; the key and IV. */
interface Played {
  segments: Map<number, { name: string; data: Buffer }>;
  key?: Buffer;
  iv?: Buffer;
}
const played = new Map<string, Played>();

const fetchAs = (who: Who | null, url: string) =>
  fetch(`${base}${url}`, { headers: who ? { authorization: `Bearer ${who.token}` } : {} });

/** One reload of a fan's player: the playlist `lives.get` hands them, the key once, each new segment. */
async function poll(who: Who): Promise<void> {
  const mine: Played = played.get(who.id) ?? { segments: new Map() };
  played.set(who.id, mine);
  const url = (await t.call('lives.get', undefined, { token: who.token, params: { id: liveId } })).body
    .playlist;
  if (!url) return;
  const res = await fetchAs(who, url);
  if (res.status !== 200) return;
  const playlist = await res.text();
  const keyUrl = /URI="([^"]+)"/.exec(playlist)?.[1];
  if (keyUrl && !mine.key) mine.key = Buffer.from(await (await fetchAs(who, keyUrl)).arrayBuffer());
  mine.iv ??= Buffer.from(/IV=0x([0-9a-f]{32})/i.exec(playlist)?.[1] ?? '', 'hex');
  for (const line of playlist.split('\n').filter((l) => l.includes('/seg_'))) {
    const name = line.split('/').pop() as string;
    const n = Number(/seg_(\d+)/.exec(name)?.[1]);
    if (mine.segments.has(n)) continue;
    const segment = await fetchAs(null, line);
    expect(segment.status, name).toBe(200);
    mine.segments.set(n, { name, data: Buffer.from(await segment.arrayBuffer()) });
  }
}

/** The fan's segments decrypted (AES-128-CBC, as players do) and joined into one transport stream. */
function download(who: Who, file: string): void {
  const mine = played.get(who.id);
  if (!mine?.key || !mine.iv) throw new Error('nothing played');
  const { key, iv } = mine;
  const parts = [...mine.segments.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, s]) => {
      const d = createDecipheriv('aes-128-cbc', key, iv);
      return Buffer.concat([d.update(s.data), d.final()]);
    });
  fs.writeFileSync(file, Buffer.concat(parts));
}

/** A screen recording of `from`: smaller, another frame rate, a low bitrate. */
async function screenRecording(from: string, name: string): Promise<string> {
  const out = path.join(dir, name);
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-i', from, '-vf', 'scale=240:136', '-r', '25'],
    ...['-c:v', 'libx264', '-b:v', '150k', '-c:a', 'aac', '-b:a', '48k', out],
  ]);
  return out;
}

/** Uploads a copy, lets its `leaks.trace` job run, and answers the trace as its requester reads it. */
async function trace(who: Who, file: string) {
  const res = await postForm(base, '/api/v1/leaks/trace', who.token, {}, [
    { name: path.basename(file), data: fs.readFileSync(file) },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ status: 'pending', kind: 'video', found: null });
  await t.jobs.drain();
  return t.call('leaks.get', undefined, { token: who.token, params: { id: res.body._id as string } });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fv-leak-live-'));
  t = await createTestApp({ LIVE_DIR: path.join(dir, 'live') });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  creator = await makeCreator(t);
  fanA = await createUser(t);
  fanB = await createUser(t);
  for (const fan of [fanA, fanB]) await subscribe(t, fan.id, creator.id);
  source = path.join(dir, 'camera.webm');
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=30:duration=${SECONDS}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${SECONDS}`],
    ...['-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '600k', '-c:a', 'libopus', source],
  ]);
  const live = await t.call(
    'lives.start',
    { title: 'Marked live', audience: 'subscribers' },
    { token: creator.token },
  );
  expect(live.status).toBe(200);
  liveId = live.body.live._id;

  // The creator's recorder sends its chunks in real time; both fans' players reload meanwhile.
  const camera = fs.readFileSync(source);
  const cs = await openSocket(base, creator.token, sockets);
  const started = Date.now();
  let sending = true;
  const player = async (who: Who) => {
    while (sending) {
      await poll(who);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const players = Promise.all([player(fanA), player(fanB)]);
  const chunk = 32 * 1024;
  for (let i = 0; i < camera.length; i += chunk) {
    const due = started + (i / camera.length) * SECONDS * 1000;
    await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
    expect(await cs.emitWithAck('liveChunk', liveId, camera.subarray(i, i + chunk))).toBe(true);
  }
  // The last segments: until nothing new comes for a while.
  let last = -1;
  await until(async () => {
    const now = Math.max(-1, ...(played.get(fanA.id)?.segments.keys() ?? []));
    const still = now === last;
    last = now;
    await new Promise((r) => setTimeout(r, 1500));
    return still;
  }, 30_000);
  sending = false;
  await players;
  await poll(fanA);
  await poll(fanB);
}, 180_000);

afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('the traceable mark on lives', () => {
  it('gives each fan their own playlist: keyed A/B names by bit period, the same key', async () => {
    const a = played.get(fanA.id);
    const b = played.get(fanB.id);
    expect(a?.segments.size).toBeGreaterThanOrEqual(SECONDS * 2 - 6);
    const names = (m: typeof a) => [...(m?.segments.entries() ?? [])].map(([n, s]) => `${n}:${s.name}`);
    expect(names(a)).not.toEqual(names(b));
    expect([...(a?.segments.values() ?? [])].every((s) => /^seg_\d{5}_[0-9a-f]{16}\.ts$/.test(s.name))).toBe(
      true,
    );
    expect(a?.key?.equals(b?.key ?? Buffer.alloc(0))).toBe(true);
    // A bit period is 4 segments of 0.5 s: in each, the two fans have all the same variant or all
    // different ones (the same name, or another name, for all four).
    const same = new Map<number, Set<boolean>>();
    for (const [n, s] of a?.segments ?? []) {
      const theirs = b?.segments.get(n);
      if (theirs)
        same.set(Math.floor(n / 4), (same.get(Math.floor(n / 4)) ?? new Set()).add(s.name === theirs.name));
    }
    expect([...same.values()].every((kinds) => kinds.size === 1)).toBe(true);
    expect([...same.values()].some((kinds) => kinds.has(false))).toBe(true);
    const grid = (await t.database.session((exec) =>
      exec(`SELECT mark FROM lives WHERE id = '${liveId}'`),
    )) as { mark: { segmentSeconds: number; segmentsPerBit: number } }[];
    expect(grid[0]?.mark).toEqual({ segmentSeconds: 0.5, segmentsPerBit: 4 });
    // One serve record per fan and live.
    const serves = await t.database.session((exec) =>
      exec(`SELECT fan_id FROM live_serves WHERE live_id = '${liveId}'`),
    );
    expect(serves.map((s) => s.fan_id).sort()).toEqual([fanA.id, fanB.id].sort());
  });

  it('opens a segment only by a keyed name: not the plain one, not a guessed one', async () => {
    const [n, s] = [...(played.get(fanA.id)?.segments.entries() ?? [])].at(-1) ?? [0, { name: '' }];
    const at = (name: string) => fetchAs(null, `/api/v1/hls/live/${liveId}/live/${name}`);
    expect((await at(s.name)).status).toBe(200);
    expect((await at(`seg_${n}.ts`)).status).toBe(404);
    expect((await at(s.name.replace(/_[0-9a-f]{16}\.ts$/, '_0123456789abcdef.ts'))).status).toBe(404);
  });

  it('keeps the reference in storage once the live ends', async () => {
    expect(t.services.liveMedia.referenceParts(liveId)).toHaveLength(1);
    const ended = await t.call('lives.end', undefined, { token: creator.token, params: { id: liveId } });
    expect(ended.status).toBe(200);
    await t.jobs.drain();
    expect(t.services.liveMedia.referenceParts(liveId)).toEqual([]);
    const reference = await t.services.liveReferences.read(liveId);
    // Grey 128×72 frames at 10 fps: the whole live.
    expect((reference?.length ?? 0) / (128 * 72)).toBeGreaterThan((SECONDS - 2) * 10);
  });

  it('traces fan A from a screen recording of their stream, fan B from theirs; the unmarked stream names nobody', async () => {
    const leakA = path.join(dir, 'fan-a.ts');
    download(fanA, leakA);
    const res = await trace(creator, await screenRecording(leakA, 'fan-a.mp4'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: 'done',
      found: true,
      kind: 'video',
      fan: { _id: fanA.id },
      media: null,
      live: { _id: liveId, title: 'Marked live' },
    });
    expect(res.body.confidence as number).toBeGreaterThanOrEqual(99);
    expect(new Date(res.body.servedAt as string).getTime()).toBeLessThanOrEqual(Date.now());
    // The one-click DMCA complaint names the live.
    const filed = await t.call('leaks.complain', {}, { token: creator.token, params: { id: res.body._id } });
    expect(filed.status).toBe(200);
    const [complaint] = await t.database.session((exec) =>
      exec(`SELECT target_id, details FROM complaints WHERE id = '${filed.body.complaintId}'`),
    );
    expect(complaint?.target_id).toBe(liveId);
    expect(complaint?.details).toContain(`live ${liveId}`);

    const leakB = path.join(dir, 'fan-b.ts');
    download(fanB, leakB);
    const b = await trace(creator, await screenRecording(leakB, 'fan-b.mp4'));
    expect(b.body).toMatchObject({ found: true, fan: { _id: fanB.id }, live: { _id: liveId } });

    const unmarked = await trace(creator, await screenRecording(source, 'camera.mp4'));
    expect(unmarked.body).toMatchObject({ status: 'done', found: false, fan: null, live: null });
  }, 120_000);

  it("is only the creator's (and staff's) to trace: another creator finds nothing", async () => {
    const other = await makeCreator(t);
    const leak = path.join(dir, 'fan-a.ts');
    const res = await trace(other, await screenRecording(leak, 'other.mp4'));
    expect(res.body).toMatchObject({ found: false, fan: null });
    const admin = await createUser(t, { roles: ['admin', 'user'] });
    expect((await trace(admin, path.join(dir, 'fan-a.mp4'))).body).toMatchObject({
      found: true,
      fan: { _id: fanA.id },
    });
  }, 120_000);
});
