import { hash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** The tag of an answer's body (before compression): SHA-1, base64, in one call. */
export const bodyHash = (payload: string | Buffer): string => hash('sha1', payload, 'base64');

/** The weak ETag of a body. */
export const weakEtag = (payload: string | Buffer): string => `W/"${bodyHash(payload)}"`;

/** Whether an If-None-Match header holds `tag` (weak comparison, RFC 9110 §13.1.2; `*` holds all). */
function held(ifNoneMatch: string, tag: string): boolean {
  const opaque = tag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => {
    const candidate = t.trim();
    return candidate === '*' || candidate.replace(/^W\//, '') === opaque;
  });
}

/**
 * Weak ETags on successful GET answers, and 304 to a client that already holds the answer (a
 * visitor reloading the shared feed, the start-up call). A route may set the tag itself (answers
 * kept with their tag: defineRoute `shared`); otherwise the body is hashed. Other methods and
 * statuses are not tagged: a POST's answer is never reused, so hashing it was waste (issue 13).
 */
export function registerEtags(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || reply.statusCode !== 200)
      return done(null, payload);
    let tag = reply.getHeader('etag');
    if (typeof tag !== 'string') {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
      tag = weakEtag(payload);
      reply.header('etag', tag);
    }
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch && held(ifNoneMatch, tag)) {
      reply.code(304);
      return done(null, '');
    }
    done(null, payload);
  });
}
