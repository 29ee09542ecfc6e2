import { describe, expect, it } from 'vitest';
import { checkPhoto, fingerprint } from './photoCheck.ts';

describe('identity photo check', () => {
  it('accepts the image types and refuses others with the catalogue text', () => {
    expect(checkPhoto({ name: 'front.jpg', type: 'image/jpeg', size: 1000 }, 'en')).toBeNull();
    expect(checkPhoto({ name: 'back.png', type: 'image/png', size: 1000 }, 'en')).toBeNull();
    expect(checkPhoto({ name: 'id.pdf', type: 'application/pdf', size: 1000 }, 'en')).toBe(
      'The file id.pdf is not supported',
    );
    expect(checkPhoto({ name: 'face.mp4', type: 'video/mp4', size: 1000 }, 'en')).toContain('not supported');
  });

  it('refuses a photo over the size limit', () => {
    expect(checkPhoto({ name: 'big.jpg', type: 'image/jpeg', size: 21 * 1024 * 1024 }, 'en')).toContain(
      'too large',
    );
  });

  it('gives the same fingerprint to the same bytes and another to different bytes', async () => {
    const a = await fingerprint(new Blob([new Uint8Array([1, 2, 3])]));
    const b = await fingerprint(new Blob([new Uint8Array([1, 2, 3])]));
    const c = await fingerprint(new Blob([new Uint8Array([3, 2, 1])]));
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});
