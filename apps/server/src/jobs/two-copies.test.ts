import type { Post } from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFIED_FORM as CERT, createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { jpeg, postForm } from '../../test/media-fixtures.ts';
import { openSocket, record, settle, type TestSocket, until } from '../../test/sockets.ts';

/**
 * Two copies of the server on one PostgreSQL database and Redis: copy A takes the upload and is the
 * only one with job workers, the creator's socket is on copy B. The worker's progress goes through
 * the realtime publisher (Redis adapter) to copy B. PGlite can't be shared, so PostgreSQL+Redis only.
 */
const shared = !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

describe.skipIf(!shared)('the job backbone across two copies', () => {
  let a: TestApp;
  let b: TestApp;
  let baseA: string;
  let baseB: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({ JOBS_WORKERS: 'false' }, { databaseUrl: a.databaseUrl });
    baseA = await a.app.listen({ port: 0, host: '127.0.0.1' });
    baseB = await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await b?.stop();
    await a?.stop();
  });

  it('an upload taken by copy A reports its progress to the creator connected to copy B', async () => {
    const creator = await createUser(a, { roles: ['user', 'creator'], verified: true });
    const onB = await openSocket(baseB, creator.token, sockets);
    const progress = record(onB, 'postProgress');
    const ended = record(onB, 'postProgressEnd');
    const res = await postForm(baseA, '/api/v1/posts', creator.token, { ...CERT, message: 'across' }, [
      { name: 'p.jpg', data: await jpeg() },
    ]);
    expect(res.status).toBe(200);
    const id = (res.body.post as Post)._id;
    await until(() => ended.some((e) => e.postId === id), 30_000);
    const percents = progress.filter((p) => p.postId === id).map((p) => p.percent);
    expect(percents.some((p) => p > 40 && p < 100)).toBe(true);
    expect(percents.at(-1)).toBe(100);
    const own = await b.call('posts.list', { post: id }, { token: creator.token });
    expect(own.body.posts[0]!.adminStatus).toBe('new');
  });

  it('a leak trace taken by copy B is read once by copy A; the requester hears of it on both copies', async () => {
    const creator = await createUser(a, { roles: ['user', 'creator'], verified: true });
    const onA = record(await openSocket(baseA, creator.token, sockets), 'leakTrace');
    const onB = record(await openSocket(baseB, creator.token, sockets), 'leakTrace');
    const res = await postForm(baseB, '/api/v1/leaks/trace', creator.token, {}, [
      { name: 'copy.jpg', data: await jpeg() },
    ]);
    expect(res.body).toMatchObject({ status: 'pending' });
    await until(() => onA.length > 0 && onB.length > 0, 30_000);
    await settle(300);
    expect(onA.map((e) => e.trace.status)).toEqual(['done']);
    expect(onB.map((e) => e.trace._id)).toEqual([res.body._id]);
    const read = await b.call('leaks.get', undefined, {
      token: creator.token,
      params: { id: res.body._id as string },
    });
    expect(read.body).toMatchObject({ status: 'done', found: false });
  });
});
