import { type EndpointName, endpoints } from '@fanverse/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { defineRoute } from './route.ts';

const URLS = {
  'posts.list': '/api/v1/posts',
  'home.get': '/api/v1/',
  'creator.profile': '/api/v1/creator/profile/x',
};
let t: TestApp;
const answers = new Map<EndpointName, unknown>();

beforeAll(async () => {
  t = await createTestApp();
  const creator = await createUser(t, { roles: ['user', 'creator'], verified: true });
  const fan = await createUser(t);
  await createPost(t, creator, { message: 'Serialized the same way' });
  answers.set('posts.list', (await t.call('posts.list', {}, { token: fan.token })).body);
  answers.set('home.get', (await t.call('home.get', {}, { token: fan.token })).body);
  answers.set(
    'creator.profile',
    (await t.call('creator.profile', {}, { token: fan.token, params: { id: creator.username } })).body,
  );
});

afterAll(async () => {
  await t?.stop();
});

/** Adds keys the contract does not know at every level, as raw rows would. */
function withExtras(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withExtras);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = { passwordHash: 'secret', email: 'x@example.com' };
    for (const [k, v] of Object.entries(value)) out[k] = withExtras(v);
    return out;
  }
  return value;
}

describe('production answers: compiled serializer', () => {
  for (const name of ['posts.list', 'home.get', 'creator.profile'] as const) {
    it(`${name}: the same JSON as validating with the output schema`, async () => {
      const expected = answers.get(name);
      expect(expected).toBeTruthy();
      const app = Fastify({ logger: false });
      const auth = { userId: 'u', sessionId: 's', username: 'u', roles: [], verified: false };
      defineRoute(
        app,
        { authenticate: async () => auth, output: 'serialize' },
        name,
        async () => withExtras(expected) as never,
      );
      const res = await app.inject({ url: URLS[name] });
      await app.close();
      expect(res.statusCode, res.body).toBe(200);
      // What validation would have answered for the same handler result.
      expect(res.json()).toEqual(
        JSON.parse(JSON.stringify(endpoints[name].output.parse(withExtras(expected)))),
      );
      expect(res.json().passwordHash).toBeUndefined();
    });
  }
});
