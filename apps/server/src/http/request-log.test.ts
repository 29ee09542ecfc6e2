import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { OneLinePerRequest, pathOf, requestSerializer } from './request-log.ts';

/** A Fastify app logging as the server does (app.ts) into `lines`; `/pino` also logs pino's own line. */
async function appLogging(level: string) {
  const lines: string[] = [];
  const app = Fastify({
    logController: new OneLinePerRequest(),
    logger: {
      level,
      stream: { write: (line: string) => lines.push(line) },
      serializers: { req: requestSerializer },
    },
  });
  app.get('/pino', async (req, reply) => {
    // What pino itself writes for the same fields (elapsedTime is read now, so it differs).
    reply.log.info({ req, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    return { ok: true };
  });
  app.get('/plain/:id', async () => ({ ok: true }));
  app.get('/fails', async () => {
    throw new Error('broken');
  });
  await app.ready();
  return { app, lines: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('the request log line', () => {
  it('is the line pino writes for the same request, field for field', async () => {
    const { app, lines } = await appLogging('info');
    const res = await app.inject({ url: '/pino?code=123456' });
    expect(res.statusCode).toBe(200);
    const [pinoLine, ownLine] = lines();
    expect(pinoLine?.msg).toBe('request completed');
    expect(ownLine?.msg).toBe('request completed');
    // Same keys in the same order, same values but for the two clocks.
    expect(Object.keys(ownLine ?? {})).toEqual(Object.keys(pinoLine ?? {}));
    const withoutClocks = (l: Record<string, unknown> | undefined) => ({ ...l, time: 0, responseTime: 0 });
    expect(withoutClocks(ownLine)).toEqual(withoutClocks(pinoLine));
    expect(ownLine).toMatchObject({
      level: 30,
      reqId: res.headers['request-id'] ?? expect.any(String),
      req: { method: 'GET', url: '/pino' },
      res: { statusCode: 200 },
      pid: process.pid,
    });
    expect(ownLine?.time).toEqual(expect.any(Number));
    expect(ownLine?.responseTime).toBeGreaterThanOrEqual(pinoLine?.responseTime as number);
    await app.close();
  });

  it('never carries the query string, and escapes what the path holds', async () => {
    const { app, lines } = await appLogging('info');
    await app.inject({ url: '/plain/a%22b%5C?token=secret' });
    await app.inject({ url: '/missing?reset=999999' });
    const logged = lines().filter((l) => l.msg === 'request completed');
    expect(logged.map((l) => (l.req as { url: string }).url)).toEqual(['/plain/a%22b%5C', '/missing']);
    expect(logged.map((l) => (l.res as { statusCode: number }).statusCode)).toEqual([200, 404]);
    // No line at all carries them (Fastify's own "route not found" line would have).
    expect(JSON.stringify(lines())).not.toMatch(/secret|reset=/);
    await app.close();
  });

  it('is not written above the info level; a failed request also has its error logged by pino', async () => {
    const quiet = await appLogging('warn');
    await quiet.app.inject({ url: '/plain/1' });
    expect(quiet.lines()).toEqual([]);
    await quiet.app.close();

    const { app, lines } = await appLogging('info');
    const res = await app.inject({ url: '/fails?x=1' });
    expect(res.statusCode).toBe(500);
    const failed = lines().find((l) => l.msg === 'broken');
    expect(failed).toMatchObject({
      level: 50,
      req: { method: 'GET', url: '/fails' },
      res: { statusCode: 500 },
    });
    expect(failed?.err).toMatchObject({ message: 'broken' });
    expect(lines().find((l) => l.msg === 'request completed')).toMatchObject({ res: { statusCode: 500 } });
    await app.close();
  });

  it('keeps the path of a URL without a query whole', () => {
    expect(pathOf('/api/v1/posts')).toBe('/api/v1/posts');
    expect(pathOf('/api/v1/posts?page=2&x=?')).toBe('/api/v1/posts');
    expect(pathOf('?')).toBe('');
  });
});
