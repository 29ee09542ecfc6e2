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

describe('shared answers: made once, sent as they are', () => {
  for (const output of ['serialize', 'validate'] as const) {
    it(`${output}: the same object twice is the same JSON and tag, unknown keys dropped; a new object is made anew`, async () => {
      const expected = answers.get('home.get');
      const app = Fastify({ logger: false });
      const auth = { userId: 'u', sessionId: 's', username: 'u', roles: [], verified: false };
      let answer = withExtras(expected);
      let made = 0;
      defineRoute(
        app,
        { authenticate: async () => auth, output },
        'home.get',
        async () => {
          made++;
          return answer as never;
        },
        { shared: true },
      );
      const first = await app.inject({ url: URLS['home.get'] });
      const again = await app.inject({ url: URLS['home.get'] });
      answer = withExtras({ ...(expected as object), name: 'Renamed' });
      const changed = await app.inject({ url: URLS['home.get'] });
      await app.close();
      expect(made).toBe(3);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toEqual(
        JSON.parse(JSON.stringify(endpoints['home.get'].output.parse(withExtras(expected)))),
      );
      expect(first.json().passwordHash).toBeUndefined();
      expect(again.body).toBe(first.body);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(first.headers.etag).toMatch(/^W\/"[A-Za-z0-9+/=]+"$/);
      expect(changed.json().name).toBe('Renamed');
      expect(changed.headers.etag).not.toBe(first.headers.etag);
    });
  }
});
