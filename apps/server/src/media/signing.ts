import { hash, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export const VARIANTS = ['original', 'web', 'thumb', 'blur', 'poster', 'sprite'] as const;
export type Variant = (typeof VARIANTS)[number];

export function isVariant(v: string): v is Variant {
  return (VARIANTS as readonly string[]).includes(v);
}

/**
 * Signed, expiring media URLs: HMAC-SHA256 over `${id}/${variant}/${exp}` with the app secret.
 * Expiries are rounded up to a window so a page reload reuses the same URL (and the browser cache).
 */
export class UrlSigner {
  /** HMAC-SHA256's padded keys (RFC 2104), derived once instead of on every signature. */
  private readonly innerPad: Buffer;
  private readonly outerPad: Buffer;
  /**
   * URLs that do not name a viewer (the blurred preview, unmarked files) are the same for everyone
   * in an expiry window: signed once per file, variant and window, then reused by every viewer.
   */
  private readonly shared = new LRUCache<string, string>({ max: 50_000 });
  /**
   * A viewer's own URLs (marked files) are the same for them in an expiry window: a fan scrolling
   * back, reloading or paging through a feed asks for many of the same files, and each was an
   * HMAC of its own (issue 13: a feed page signs dozens).
   */
  private readonly personal = new LRUCache<string, string>({ max: 100_000 });

  constructor(
    secret: string,
    private readonly opts: { ttlSeconds: number; cdnUrl?: string; now?: () => Date },
  ) {
    let key = Buffer.from(secret, 'utf8');
    if (key.length > 64) key = hash('sha256', key, 'buffer');
    const block = Buffer.alloc(64);
    key.copy(block);
    this.innerPad = Buffer.from(block.map((b) => b ^ 0x36));
    this.outerPad = Buffer.from(block.map((b) => b ^ 0x5c));
  }

  private nowSeconds(): number {
    return Math.floor((this.opts.now?.() ?? new Date()).getTime() / 1000);
  }

  private mac(id: string, variant: Variant, exp: number, fan?: string): string {
    const subject = fan ? `${id}/${variant}/${exp}/${fan}` : `${id}/${variant}/${exp}`;
    return this.hmac(subject);
  }

  /** HMAC-SHA256 in hex, the same as `createHmac('sha256', secret)`, with the pads precomputed. */
  private hmac(subject: string): string {
    const inner = hash('sha256', Buffer.concat([this.innerPad, Buffer.from(subject)]), 'buffer');
    return hash('sha256', Buffer.concat([this.outerPad, inner]), 'hex');
  }

  /**
   * A URL (relative, or absolute on the CDN domain) valid for at least the configured TTL, but
   * never past `until` (the end of the viewer's sight of the file, e.g. a story's). With `fan`, the
   * file is served with that fan's mark (the fan is part of what is signed).
   */
  url(id: string, variant: Variant, fan?: string, until?: Date | null): string {
    const window = Math.min(300, this.opts.ttlSeconds);
    const rounded = Math.ceil((this.nowSeconds() + this.opts.ttlSeconds) / window) * window;
    const exp = until ? Math.min(rounded, Math.floor(until.getTime() / 1000)) : rounded;
    const cache = fan ? this.personal : this.shared;
    const key = fan ? `${id}/${variant}/${exp}/${fan}` : `${id}/${variant}/${exp}`;
    let signed = cache.get(key);
    if (signed === undefined) {
      signed = this.sign(id, variant, exp, fan);
      cache.set(key, signed);
    }
    return signed;
  }

  private sign(id: string, variant: Variant, exp: number, fan?: string): string {
    const who = fan ? `&fan=${encodeURIComponent(fan)}` : '';
    const pathname = `/api/v1/media/${encodeURIComponent(id)}/${variant}?exp=${exp}${who}&sig=${this.mac(id, variant, exp, fan)}`;
    return this.opts.cdnUrl ? `${this.opts.cdnUrl.replace(/\/+$/, '')}${pathname}` : pathname;
  }

  /** 'ok' with the seconds left, 'expired' or 'invalid' (constant-time comparison). */
  verify(
    id: string,
    variant: Variant,
    exp: string | undefined,
    sig: string | undefined,
    fan?: string,
  ): { ok: true; remaining: number } | { ok: false } {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return { ok: false };
    const expected = Buffer.from(this.mac(id, variant, Number(exp), fan), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return { ok: false };
    const remaining = Number(exp) - this.nowSeconds();
    return remaining > 0 ? { ok: true, remaining } : { ok: false };
  }
}
