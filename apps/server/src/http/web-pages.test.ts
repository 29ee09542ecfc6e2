import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';

// A built web app in small: the page, one hashed asset and a file at the root.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-web-'));
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html lang="en"><head><title>%APP_NAME%</title></head><body><div id="root"></div></body></html>',
);
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *\n');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { webDistDir: dist });
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('web pages and files beside the API', () => {
  it('answers every client-side route with the page, compressed when the browser asks', async () => {
    for (const url of ['/', '/creator1', '/post/abc?x=1', '/messages/some/deep/path']) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toMatch(/no-cache/);
      expect(brotliDecompressSync(res.rawPayload).toString()).toContain('<div id="root">');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/creator1' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(head.body).toBe('');
  });

  it('serves the build files, assets kept for a year', async () => {
    const asset = await t.app.inject({ url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const robots = await t.app.inject({ url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing asset, another method or an unknown API path with the JSON 404, in the language asked', async () => {
    for (const [method, url] of [
      ['GET', '/assets/index-gone99.js'],
      ['POST', '/creator1'],
      ['DELETE', '/'],
      ['GET', '/api/v1/nothing-here'],
      ['HEAD', '/api/v1/nothing-here'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { ilang: 'es' } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      if (method !== 'HEAD')
        expect(res.json(), `${method} ${url}`).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
    }
    const es = await t.app.inject({ url: '/api/v1/nothing-here', headers: { ilang: 'es' } });
    const en = await t.app.inject({ url: '/api/v1/nothing-here', headers: { ilang: 'en' } });
    expect(es.json().message).not.toBe(en.json().message);
  });

  it('leaves the routes of the server to themselves', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const api = await t.app.inject({ url: '/api/v1/?view=home' });
    expect(api.statusCode).toBe(200);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
  });

  it('keeps requests for files outside the build away from the disk', async () => {
    for (const url of ['/../package.json', '/%2e%2e/%2e%2e/package.json', '/assets/../../package.json']) {
      const res = await t.app.inject({ url });
      expect(res.body, url).not.toContain('"dependencies"');
    }
  });
});
