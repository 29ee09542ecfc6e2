import type { FastifyInstance, FastifyReply } from 'fastify';
import { PUBLIC_PURPOSES } from '../access/index.ts';
import { AppError } from '../http/app-error.ts';
import type { MediaService } from './media.service.ts';
import { isVariant, type UrlSigner } from './signing.ts';
import type { ByteRange } from './storage.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `GET /api/v1/media/:id/:variant?exp&sig[&fan]`: serves a file to whoever holds a valid signed URL;
 * the one place private media leaves the server.
 */
export function registerMediaRoutes(app: FastifyInstance, service: MediaService, signer: UrlSigner): void {
  app.get<{
    Params: { id: string; variant: string };
    Querystring: { exp?: string; sig?: string; fan?: string };
  }>('/api/v1/media/:id/:variant', async (req, reply) => {
    const { id, variant } = req.params;
    const { fan } = req.query;
    if (!UUID.test(id) || !isVariant(variant) || (fan !== undefined && !UUID.test(fan)))
      throw new AppError('NOT_FOUND');
    const check = signer.verify(id, variant, req.query.exp, req.query.sig, fan);
    if (!check.ok) throw new AppError('FORBIDDEN');
    // The fan named in the signed URL gets their own marked copy (ADR 0026); renditions that
    // must be marked are refused without one.
    const file = await service.file(id, variant, fan ?? null);
    if (!file) throw new AppError('NOT_FOUND');

    reply
      .header('content-type', file.contentType)
      .header('cache-control', `private, max-age=${check.remaining}`)
      .header('accept-ranges', 'bytes')
      // Signed URLs may be embedded from the CDN domain.
      .header('cross-origin-resource-policy', 'cross-origin');
    const header = req.headers.range;
    if (header === undefined) {
      reply.header('content-length', String(file.size));
      return reply.send(await file.open());
    }
    const range = parseRange(header, file.size);
    if (!range) return unsatisfiable(reply, file.size);
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('content-length', String(range.end - range.start + 1));
    return reply.send(await file.open(range));
  });
}

export function registerPublicMediaRoutes(app: FastifyInstance, service: MediaService): void {
  app.get<{ Params: { id: string; variant: string } }>(
    '/api/v1/public-media/:id/:variant',
    async (req, reply) => {
      const { id, variant } = req.params;
      if (!UUID.test(id) || (variant !== 'thumb' && variant !== 'web')) throw new AppError('NOT_FOUND');
      const row = await service.get(id);
      if (!row || !PUBLIC_PURPOSES.includes(row.purpose) || row.status !== 'ready')
        throw new AppError('NOT_FOUND');
      const file = await service.file(id, variant);
      if (!file) throw new AppError('NOT_FOUND');
      reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('cache-control', 'public, max-age=86400, immutable')
        .header('cross-origin-resource-policy', 'cross-origin');
      return reply.send(await file.open());
    },
  );
}

function unsatisfiable(reply: FastifyReply, size: number) {
  return reply.status(416).header('content-range', `bytes */${size}`).send();
}

/** One `bytes=` range (start-end, start- or -suffix); null when it can't be satisfied. */
export function parseRange(header: string, size: number): ByteRange | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '') || size === 0) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return null;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return null;
  return { start, end };
}
