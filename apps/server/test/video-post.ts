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
