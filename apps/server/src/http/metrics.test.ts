import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { openSocket, type TestSocket } from '../../test/sockets.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { pgBossDb } from '../jobs/pg-boss-db.ts';
import { serveMetrics } from './metrics.ts';

let t: TestApp;
let base: string;
let served: Awaited<ReturnType<typeof serveMetrics>>;
let boss: PgBoss;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  served = await serveMetrics(t.metrics, { host: '127.0.0.1', port: 0 });
  boss = new PgBoss({ db: pgBossDb(t.database), schedule: false, supervise: false });
  boss.on('error', () => {});
  await boss.start();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await boss?.stop({ graceful: false, close: false });
  await served?.close();
  await t?.stop();
});

describe('metrics', () => {
  it('reports latency by route pattern, queue depth, sockets and the database pool', async () => {
    const fan = await createUser(t);
    await openSocket(base, fan.token, sockets);
    expect((await t.call('wallet.get', undefined, { token: fan.token })).status).toBe(200);
    const mediaId = randomUUID();
    expect((await fetch(`${base}/api/v1/media/${mediaId}/web?exp=1&sig=x`)).status).toBe(403);
    await boss.createQueue('metrics-probe', { name: 'metrics-probe' });
    await boss.send('metrics-probe', {});
    await boss.send('metrics-probe', {});

    const res = await fetch(served.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/wallet",status_code="200"\} 1/,
    );
    expect(text).toContain('route="/api/v1/media/:id/:variant",status_code="403"');
    expect(text).not.toContain(mediaId);
    expect(text).toContain('fanverse_job_queue_jobs{queue="metrics-probe",state="created"} 2');
    expect(text).toContain('fanverse_socket_connections 1');
    expect(text).toMatch(
      new RegExp(`fanverse_db_pool_connections\\{database="${t.database.kind}",state="total"\\} [1-9]`),
    );
    expect(text).toContain(`fanverse_db_pool_waiting{database="${t.database.kind}"} 0`);
    expect(text).toContain('fanverse_database_up 1');
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('is not served on the public port, nor through a proxy on the metrics listener', async () => {
    // The public port answers /metrics with the web app (every path is a page), never the metrics.
    const page = await fetch(`${base}/metrics`);
    expect(await page.text()).not.toContain('http_request_duration_seconds');
    expect((await fetch(`${base}/api/v1/metrics`)).status).toBe(404);
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const proxied = await fetch(served.url, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.status).toBe(403);
    expect((await fetch(served.url, { headers: { forwarded: 'for=203.0.113.9' } })).status).toBe(403);
  });

  it('asks for the bearer token when METRICS_TOKEN is set', async () => {
    const token = 'metrics-token-0123456789';
    const guarded = await serveMetrics(t.metrics, { host: '127.0.0.1', port: 0, token });
    try {
      expect((await fetch(guarded.url)).status).toBe(401);
      expect((await fetch(guarded.url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const ok = await fetch(guarded.url, {
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' },
      });
      expect(ok.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('refuses to start with metrics off loopback and no token', () => {
    expect(() => loadConfig({ METRICS_HOST: '0.0.0.0' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_HOST: '0.0.0.0', METRICS_PORT: '0' })).not.toThrow();
    expect(loadConfig({ METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 'x'.repeat(16) }).metrics.host).toBe(
      '0.0.0.0',
    );
    expect(loadConfig({}).metrics).toEqual({ host: '127.0.0.1', port: 9464, token: undefined });
  });
});
