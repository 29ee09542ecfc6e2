import { hmac, safeEqual } from '../../payments/signing.ts';

/** How long a renewal mail's cancel link works (the mail goes 7 days before; a period may be long). */
const VALID_DAYS = 45;
/** The purpose bound into the signature: a token signed for anything else never verifies here. */
const PURPOSE = 'subscription-cancel:v1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The one-click cancel link of a renewal mail: `<subscription>.<expiry ms>.<hmac>` signed with the
 * app secret over a fixed purpose. It can only cancel that one subscription, until it expires; it
 * carries no session and gives no other access.
 */
export class CancelLinks {
  constructor(private readonly secret: string) {}

  sign(subscriptionId: string, now: Date): string {
    const expires = now.getTime() + VALID_DAYS * 86_400_000;
    return `${subscriptionId}.${expires}.${this.mac(subscriptionId, expires)}`;
  }

  /** The subscription id the token cancels, or null when it is forged, malformed or expired. */
  verify(token: string, now: Date): string | null {
    const [id, exp, mac, ...rest] = token.split('.');
    if (rest.length || !id || !exp || !mac || !UUID.test(id) || !/^\d{1,15}$/.test(exp)) return null;
    const expires = Number(exp);
    if (!safeEqual(mac, this.mac(id, expires))) return null;
    return expires > now.getTime() ? id : null;
  }

  private mac(id: string, expires: number): string {
    return hmac(this.secret, `${PURPOSE}:${id}:${expires}`);
  }
}
