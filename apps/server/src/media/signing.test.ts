import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UrlSigner } from './signing.ts';

const sigOf = (url: string) => new URL(url, 'http://x').searchParams.get('sig');
const expOf = (url: string) => new URL(url, 'http://x').searchParams.get('exp');

describe('UrlSigner', () => {
  for (const secret of ['short', 'k'.repeat(64), 's'.repeat(100), 'clé-ünïcode']) {
    it(`signs with HMAC-SHA256 of the secret (${secret.length} chars)`, () => {
      const signer = new UrlSigner(secret, { ttlSeconds: 600, now: () => new Date(1_700_000_000_000) });
      const plain = signer.url('m1', 'blur');
      const exp = expOf(plain);
      expect(sigOf(plain)).toBe(createHmac('sha256', secret).update(`m1/blur/${exp}`).digest('hex'));
      const marked = signer.url('m1', 'web', 'fan-1');
      expect(sigOf(marked)).toBe(createHmac('sha256', secret).update(`m1/web/${exp}/fan-1`).digest('hex'));
      expect(signer.verify('m1', 'web', exp!, sigOf(marked)!, 'fan-1').ok).toBe(true);
      expect(signer.verify('m1', 'web', exp!, sigOf(marked)!, 'fan-2').ok).toBe(false);
    });
  }

  it('reuses a viewer-independent URL within its window and signs a new one in the next', () => {
    let now = 1_700_000_000_000;
    const signer = new UrlSigner('secret', { ttlSeconds: 600, now: () => new Date(now) });
    const first = signer.url('m1', 'blur');
    expect(signer.url('m1', 'blur')).toBe(first);
    now += 301_000;
    const next = signer.url('m1', 'blur');
    expect(Number(expOf(next))).toBeGreaterThan(Number(expOf(first)));
    expect(Number(expOf(next)) * 1000).toBeGreaterThanOrEqual(now + 600_000);
    expect(signer.verify('m1', 'blur', expOf(next)!, sigOf(next)!).ok).toBe(true);
  });
});
