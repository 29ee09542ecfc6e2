import { createDecipheriv } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Post } from '@fanverse/contract';
import { expect } from 'vitest';
import { createUser, subscribe } from './factories.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { postForm } from './media-fixtures.ts';

const CERT = { certifyAdults: 'true', certifyConsent: 'true', certifyTerms: 'true' };

/**
 * Publishes a post of `owner` with `files` (fields: kind, visibility, previewSeconds …) on a
 * listening app, lets the jobs process its files and has an administrator approve it.
 */
export async function publishApproved(
  t: TestApp,
  base: string,
  owner: { token: string },
  fields: Record<string, string>,
  files: { name: string; data: Buffer }[],
): Promise<Post> {
  const res = await postForm(
    base,
    '/api/v1/posts',
    owner.token,
    { ...CERT, message: 'clip', ...fields },
    files,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const post = res.body.post as Post;
  await t.jobs.drain();
  const admin = await createUser(t, { roles: ['admin', 'user'] });
  const review = await t.call(
    'admin.postReview',
    { id: post._id, adminStatus: 'approved' },
    { token: admin.token },
  );
  expect(review.status).toBe(200);
  return post;
}

/**
 * A listening app with a creator, a subscriber of theirs and a stranger, and one approved post of
 * the creator with `files` (publishApproved).
 * `get` fetches a URL of the app, with a session token when given (HLS, media).
 */
export async function approvedVideoPost(
  fields: Record<string, string>,
  files: { name: string; data: Buffer }[],
) {
  const t: TestApp = await createTestApp();
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  const subscriber = await createUser(t);
  const stranger = await createUser(t);
  await subscribe(t, subscriber.id, creator.id);
  const post = await publishApproved(t, base, creator, fields, files);
  const get = (url: string, token?: string) =>
    fetch(`${base}${url}`, { headers: token ? { a1sledom: token } : {} });
  return { t, base, creator, subscriber, stranger, post, get };
}

type Get = (url: string, token?: string) => Promise<Response>;

/**
 * A media playlist as a player reads it with a session: its text, the AES-128 key its key URL
 * hands out, the IV and the segment URLs.
 */
export async function readPlaylist(get: Get, url: string, token: string) {
  const res = await get(url, token);
  expect(res.status, url).toBe(200);
  const text = await res.text();
  const keyRes = await get(/URI="([^"]+)"/.exec(text)?.[1] as string, token);
  expect(keyRes.status).toBe(200);
  const key = Buffer.from(await keyRes.arrayBuffer());
  const iv = Buffer.from(/IV=0x([0-9a-f]+)/i.exec(text)?.[1] as string, 'hex');
  const segments = text.split('\n').filter((l) => l && !l.startsWith('#'));
  return { text, key, iv, segments };
}

/** Uploads a leaked video copy, lets its `leaks.trace` job run, and answers the trace as its requester reads it. */
export async function traceCopy(t: TestApp, base: string, token: string, file: string) {
  const res = await postForm(base, '/api/v1/leaks/trace', token, {}, [
    { name: path.basename(file), data: fs.readFileSync(file) },
  ]);
  if (res.status !== 200) return res;
  expect(res.body).toMatchObject({ status: 'pending', kind: 'video', found: null });
  await t.jobs.drain();
  return t.call('leaks.get', undefined, { token, params: { id: res.body._id as string } });
}

/** Fetches and decrypts every segment of a playlist (AES-128-CBC, as HLS players do) into one file. */
export async function downloadStream(
  get: Get,
  playlist: { key: Buffer; iv: Buffer; segments: string[] },
  file: string,
): Promise<void> {
  const parts: Buffer[] = [];
  for (const url of playlist.segments) {
    const res = await get(url);
    expect(res.status).toBe(200);
    const d = createDecipheriv('aes-128-cbc', playlist.key, playlist.iv);
    parts.push(d.update(Buffer.from(await res.arrayBuffer())), d.final());
  }
  fs.writeFileSync(file, Buffer.concat(parts));
}
