import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptedEncoding, compressHtml } from './html.ts';

describe('web pages, compressed', () => {
  it('makes br and gzip twins that give the page back', () => {
    const html = `<!doctype html><style>${'.a{color:red}'.repeat(500)}</style><div id="root"></div>`;
    for (const best of [true, false]) {
      const page = compressHtml(html, best);
      expect(page.identity.toString()).toBe(html);
      expect(brotliDecompressSync(page.br).toString()).toBe(html);
      expect(gunzipSync(page.gzip).toString()).toBe(html);
      expect(page.br.length).toBeLessThan(html.length / 10);
    }
  });

  it('sends br, else gzip, to a browser that accepts it, and the page as is otherwise', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('gzip, deflate')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('identity')).toBeNull();
    expect(acceptedEncoding('gzip;q=0')).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
    expect(acceptedEncoding('')).toBeNull();
  });

  it('reads each value once and gives the same answer from memory, long values included', () => {
    for (let round = 0; round < 2; round++) {
      expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
      expect(acceptedEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
      expect(acceptedEncoding(`${'x;q=1, '.repeat(100)}gzip;q=0`)).toBeNull();
      expect(acceptedEncoding(`${'x;q=1, '.repeat(100)}gzip`)).toBe('gzip');
    }
    // More distinct values than are kept: answers stay right as the memory is emptied.
    for (let i = 0; i < 600; i++) expect(acceptedEncoding(`gzip;q=0, x-${i}, br`)).toBe('br');
    expect(acceptedEncoding('gzip;q=0')).toBeNull();
  });
});
