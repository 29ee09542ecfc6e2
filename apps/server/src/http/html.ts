import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';

/**
 * An answer compressed once in `encoding` (br at quality 6, gzip at level 6: answers kept for a
 * few seconds and sent many times, e.g. a visitor's feed, defineRoute `shared`).
 */
export function compressOnce(body: Buffer, encoding: 'br' | 'gzip'): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: 6,
        },
      })
    : gzipSync(body, { level: 6 });
}

/** A page and its compressed twins, each made once. */
export interface HtmlPage {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The web app's pages (index.html, with or without share tags) compressed here: they are sent from
 * the not-found handler (createWebPages, app.ts), which the compress plugin does not see (it works
 * per route), and the inlined stylesheet makes index.html ~45 KB, ~11 KB in brotli. `best` for the
 * page made once at start-up; a page made per request (share tags) takes the faster levels.
 */
export function compressHtml(html: string, best: boolean): HtmlPage {
  const identity = Buffer.from(html);
  return {
    identity,
    br: brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: best ? 11 : 5,
      },
    }),
    gzip: gzipSync(identity, { level: best ? 9 : 6 }),
  };
}

/** The encoding to send an answer in, from the request's Accept-Encoding (br first, then gzip). */
export function acceptedEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  // Clients send one of a few values (a browser the same one every time): each is read once.
  let known = encodingOf.get(acceptEncoding);
  if (known === undefined) {
    known = readAcceptEncoding(acceptEncoding) ?? 'identity';
    if (acceptEncoding.length <= KEPT_LENGTH) encodingOf.set(acceptEncoding, known);
  }
  return known === 'identity' ? null : known;
}

/** The encodings read from the Accept-Encoding values last seen (`identity`: sent as is). */
const encodingOf = new LRUCache<string, 'br' | 'gzip' | 'identity'>({ max: 256 });
/** Longer values are read every time, so the memory stays small whatever clients send. */
const KEPT_LENGTH = 128;

function readAcceptEncoding(acceptEncoding: string): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => accepted.get(name) ?? (accepted.has('*') ? (accepted.get('*') ?? 0) : 0);
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}
