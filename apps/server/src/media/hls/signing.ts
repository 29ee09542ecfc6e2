import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a signed HLS URL opens: the master playlist, a rendition's playlist, a rendition's key, or
 * a captions track (its `rendition` is the track's language).
 */
export type HlsTarget = 'master' | 'playlist' | 'key' | 'captions';

/** The fields a signed HLS URL is bound to. */
export interface HlsGrant {
  /** Stream family: `video` (uploaded videos), `live` (live streams) … one namespace per source. */
  kind: string;
  /** The video / stream id. */
  id: string;
  /** Rendition name (`240p`, `preview` …); `-` for the master playlist. */
  rendition: string;
  target: HlsTarget;
  /** The session the URL was minted for: a URL from one session fails in another. */
  sessionId: string;
}

export interface SignedQuery {
  sid: string;
  exp: string;
  sig: string;
}

const HEX64 = /^[0-9a-f]{64}$/;
const UUIDISH = /^[0-9a-zA-Z-]{1,64}$/;

/**
 * HMAC-SHA256 signatures of HLS URLs, bound to a session and short-lived (ADR 0021). The secret is
 * the app's shared signing secret, so every server copy verifies what another one signed.
 */
export class HlsSigner {
  constructor(
    private readonly secret: string,
    private readonly opts: { ttlSeconds: number; now?: () => Date },
  ) {}

  get ttlSeconds(): number {
    return this.opts.ttlSeconds;
  }

  private nowSeconds(): number {
    return Math.floor((this.opts.now?.() ?? new Date()).getTime() / 1000);
  }

  private mac(g: HlsGrant, exp: number): Buffer {
    return createHmac('sha256', this.secret)
      .update(`hls\n${g.kind}\n${g.id}\n${g.rendition}\n${g.target}\n${g.sessionId}\n${exp}`)
      .digest();
  }

  /** The query string (`sid`, `exp`, `sig`) that grants `g` for the configured time. */
  sign(g: HlsGrant): SignedQuery {
    const exp = this.nowSeconds() + this.opts.ttlSeconds;
    return { sid: g.sessionId, exp: String(exp), sig: this.mac(g, exp).toString('hex') };
  }

  /** `?sid=…&exp=…&sig=…` */
  query(g: HlsGrant): string {
    const q = this.sign(g);
    return `sid=${encodeURIComponent(q.sid)}&exp=${q.exp}&sig=${q.sig}`;
  }

  /**
   * The session the URL was signed for when the signature matches and has not expired, else null.
   * Constant-time comparison.
   */
  verify(g: Omit<HlsGrant, 'sessionId'>, q: Partial<SignedQuery>): string | null {
    const { sid, exp, sig } = q;
    if (!sid || !exp || !sig || !UUIDISH.test(sid) || !/^\d{1,12}$/.test(exp) || !HEX64.test(sig))
      return null;
    const expected = this.mac({ ...g, sessionId: sid }, Number(exp));
    if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return null;
    return Number(exp) > this.nowSeconds() ? sid : null;
  }
}
