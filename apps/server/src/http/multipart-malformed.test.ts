import type { EndpointName } from '@fanverse/contract';
import { endpoints } from '@fanverse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { jpeg } from '../../test/media-fixtures.ts';

let t: TestApp;
let creator: Awaited<ReturnType<typeof createUser>>;
let fan: Awaited<ReturnType<typeof createUser>>;
let postId: string;
let image: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  creator = await createUser(t, { roles: ['user', 'fan', 'creator'], verified: true });
  fan = await createUser(t, { verified: true });
  postId = await createPost(t, creator);
  image = await jpeg(64, 48);
});
afterAll(() => t.stop());

const UPLOADS: EndpointName[] = [
  'user.profileImage',
  'posts.create',
  'posts.update',
  'message.send',
  'message.mass',
  'creator.apply',
];

const TABLES = ['media', 'posts', 'messages', 'creator_applications'];

async function rowCounts(): Promise<number[]> {
  return t.database.session(async (exec) => {
    const out: number[] = [];
    for (const table of TABLES) {
      const rows = (await exec(`SELECT count(*)::int AS n FROM ${table}`)) as unknown as
        | { rows: { n: number }[] }
        | { n: number }[];
      const list = Array.isArray(rows) ? rows : rows.rows;
      out.push(Number(list[0]?.n));
    }
    return out;
  });
}

/** A form with a text field and a JPEG part, as raw bytes. */
function form(boundary: string, name: EndpointName): Buffer {
  const text = name === 'creator.apply' ? 'step' : name.startsWith('message') ? 'message' : 'message';
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${text}"\r\n\r\nhello\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.jpg"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    ),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

const MALFORMED: [string, (name: EndpointName) => { contentType: string; payload: Buffer }][] = [
  ['no boundary', (n) => ({ contentType: 'multipart/form-data', payload: form('XyZ', n) })],
  ['an empty boundary', (n) => ({ contentType: 'multipart/form-data; boundary=', payload: form('XyZ', n) })],
  [
    'a boundary that is not in the body',
    (n) => ({ contentType: 'multipart/form-data; boundary=other', payload: form('XyZ', n) }),
  ],
  [
    'a truncated body',
    (n) => {
      const full = form('XyZ', n);
      return {
        contentType: 'multipart/form-data; boundary=XyZ',
        payload: full.subarray(0, full.length - 300),
      };
    },
  ],
  [
    'a body cut inside the headers of a part',
    (n) => ({
      contentType: 'multipart/form-data; boundary=XyZ',
      payload: form('XyZ', n).subarray(0, 70),
    }),
  ],
  [
    'a JSON body under a multipart content type',
    () => ({ contentType: 'multipart/form-data; boundary=XyZ', payload: Buffer.from('{"message":"hi"}') }),
  ],
];

/** Content types no upload accepts: the catalogue's 415, before any byte is stored. */
const WRONG_TYPE: [string, (name: EndpointName) => { contentType: string; payload: Buffer }][] = [
  ['multipart/mixed', (n) => ({ contentType: 'multipart/mixed; boundary=XyZ', payload: form('XyZ', n) })],
  ['application/octet-stream', () => ({ contentType: 'application/octet-stream', payload: image })],
];

async function send(name: EndpointName, contentType: string, payload: Buffer) {
  const def = endpoints[name];
  const token = name === 'message.send' || name === 'creator.apply' ? fan.token : creator.token;
  return t.app.inject({
    method: def.method,
    url: `/api/v1${def.path.replace(':id', postId)}`,
    headers: { 'content-type': contentType, a1sledom: token, ilang: 'es' },
    payload,
  });
}

describe('a malformed multipart body', () => {
  for (const name of UPLOADS) {
    it.each(MALFORMED)(
      `${name}: %s answers 400 INVALID_MULTIPART and stores nothing`,
      async (_label, make) => {
        const def = endpoints[name];
        const { contentType, payload } = make(name);
        const before = await rowCounts();
        const token = name === 'message.send' || name === 'creator.apply' ? fan.token : creator.token;
        const res = await t.app.inject({
          method: def.method,
          url: `/api/v1${def.path.replace(':id', postId)}`,
          headers: { 'content-type': contentType, a1sledom: token, ilang: 'es' },
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          code: 'INVALID_MULTIPART',
          message: 'El formulario enviado está incompleto o mal formado.',
        });
        // The uploads' scope has the app-wide hooks (app.ts registers it after them).
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(await rowCounts()).toEqual(before);
      },
    );
  }
});

describe('an upload with a content type that is not a form', () => {
  for (const name of UPLOADS) {
    it.each(WRONG_TYPE)(`${name}: %s answers 415 and stores nothing`, async (_label, make) => {
      const { contentType, payload } = make(name);
      const before = await rowCounts();
      const res = await send(name, contentType, payload);
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Este tipo de contenido no es compatible.',
      });
      expect(await rowCounts()).toEqual(before);
    });
  }
});

// Only the endpoints that take files are in the scope with @fastify/multipart (app.ts): its hooks
// run on their requests alone, and a form sent anywhere else is refused as the wrong content type.
describe('a form sent to an endpoint that takes no files', () => {
  it.each<EndpointName>(['posts.like', 'posts.save', 'comments.create'])(
    '%s answers 415 in the caller’s language',
    async (name) => {
      const def = endpoints[name];
      const res = await t.app.inject({
        method: def.method,
        url: `/api/v1${def.path}`,
        headers: { 'content-type': 'multipart/form-data; boundary=XyZ', a1sledom: fan.token, ilang: 'es' },
        payload: form('XyZ', 'message.send'),
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Este tipo de contenido no es compatible.',
      });
    },
  );
});
