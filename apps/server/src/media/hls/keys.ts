import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';

/**
 * AES-128 content keys. A key is never stored next to the segments: it is derived on the server
 * from the app secret, the stream, the rendition and a random key id kept with the stream's
 * manifest (so re-encoding rotates it). Only the key endpoint hands it out, after the entitlement
 * check. Live streams derive theirs the same way.
 */
export class HlsKeys {
  constructor(private readonly secret: string) {}

  /** A fresh key id for a new stream / encoding. */
  static newKeyId(): string {
    return randomBytes(12).toString('hex');
  }

  /** The 16-byte AES-128 key of one rendition. */
  key(kind: string, id: string, rendition: string, keyId: string): Buffer {
    return createHmac('sha256', this.secret)
      .update(`hls-key\n${kind}\n${id}\n${rendition}\n${keyId}`)
      .digest()
      .subarray(0, 16);
  }

  /** A random 16-byte IV as the hex ffmpeg and the playlist want. */
  static newIv(): string {
    return randomBytes(16).toString('hex');
  }

  /**
   * Writes ffmpeg's `-hls_key_info_file` (key URI placeholder, key file, IV) and the key file; the
   * placeholder URI `key` is replaced by a signed key URL each time the playlist is served.
   */
  static async writeKeyInfo(infoPath: string, keyPath: string, key: Buffer, iv: string): Promise<void> {
    await fs.promises.writeFile(keyPath, key, { mode: 0o600 });
    await fs.promises.writeFile(infoPath, `key\n${keyPath}\n${iv}\n`, { mode: 0o600 });
  }
}
