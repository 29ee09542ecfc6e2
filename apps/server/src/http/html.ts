import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** A page and its compressed twins, each made once. */
export interface HtmlPage {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The web app's pages (index.html, with or without share tags) compressed here: they are sent from
 * an onRequest hook (registerWeb), which the compress plugin does not see (it works per route), and
 * the inlined stylesheet makes index.html ~45 KB, ~11 KB in brotli. `best` for the page made once
 * at start-up; a page made per request (share tags) takes the faster levels.
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

/** The encoding to send a page in, from the request's Accept-Encoding (br first, then gzip). */
export function htmlEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => accepted.get(name) ?? (accepted.has('*') ? (accepted.get('*') ?? 0) : 0);
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}
