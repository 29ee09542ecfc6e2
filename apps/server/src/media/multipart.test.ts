import fs from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { registerErrorHandler } from '../http/error-handler.ts';
import { deleteTempFiles, readMultipart, registerMultipart } from '../http/multipart.ts';

// Over a real socket (inject can't show it): a refused upload must answer at once and leave no
// half-read request behind, or the client waits and the server can't close.
let app: FastifyInstance;
let address: string;
const saved: { size: number; existed: boolean }[] = [];

beforeAll(async () => {
  const config = loadConfig({ NODE_ENV: 'test', MEDIA_MAX_IMAGE_MB: '1', MEDIA_MAX_VIDEO_MB: '2' });
  app = Fastify({ logger: false });
  registerErrorHandler(app);
  await registerMultipart(app, config);
  app.post('/upload', async (req) => {
    const body = await readMultipart(req, config.media);
    for (const f of body.files) saved.push({ size: f.size, existed: fs.existsSync(f.path) });
    await deleteTempFiles(body.files);
    return { files: body.files.map((f) => ({ field: f.field, filename: f.filename, size: f.size })) };
  });
  address = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close(); // hangs if a refused upload left its connection half-read
});

const png = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Blob([bytes]);
};

describe('multipart over HTTP', () => {
  it('saves files to temporary files with their field, name and size', async () => {
    const form = new FormData();
    form.append('files', png(1000), 'a.png');
    form.append('files', png(2000), 'b.png');
    const res = await fetch(`${address}/upload`, { method: 'POST', body: form });
    expect(await res.json()).toEqual({
      files: [
        { field: 'files', filename: 'a.png', size: 1000 },
        { field: 'files', filename: 'b.png', size: 2000 },
      ],
    });
    expect(saved.every((s) => s.existed)).toBe(true);
  });

  it('answers FILE_TOO_LARGE before the whole body is sent and closes the connection', async () => {
    const form = new FormData();
    form.append('files', png(8 * 1024 * 1024), 'huge.png');
    const res = await fetch(`${address}/upload`, {
      method: 'POST',
      body: form,
      headers: { ilang: 'es' },
      signal: AbortSignal.timeout(20_000),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({
      code: 'FILE_TOO_LARGE',
      message: 'El archivo huge.png es demasiado grande, tamaño máximo 1 MB',
    });
  });

  it('refuses a request that is not multipart', async () => {
    const res = await fetch(`${address}/upload`, {
      method: 'POST',
      body: JSON.stringify({ a: 1 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(415);
  });
});
