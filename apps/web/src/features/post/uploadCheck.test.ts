import { describe, expect, it } from 'vitest';
import { checkUpload } from './uploadCheck.ts';

describe('checkUpload', () => {
  it('accepts images and videos of the spec', () => {
    expect(checkUpload({ name: 'a.jpg', type: 'image/jpeg', size: 10 }, 'en')).toBeNull();
    expect(checkUpload({ name: 'a.mp4', type: 'video/mp4', size: 10 }, 'en')).toBeNull();
  });
  it('refuses other types and too large files with the catalogue texts', () => {
    expect(checkUpload({ name: 'a.pdf', type: 'application/pdf', size: 10 }, 'en')).toBe(
      'The file a.pdf is not supported',
    );
    expect(checkUpload({ name: 'b.png', type: 'image/png', size: 21 * 1024 * 1024 }, 'en')).toBe(
      'The file b.png is too large, Max size 20 MB',
    );
  });
});
