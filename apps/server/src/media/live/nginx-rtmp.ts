import fs from 'node:fs';
import path from 'node:path';

/**
 * An external media engine for RTMP lives (ADR 0040): nginx with the RTMP module (Debian's
 * `libnginx-mod-rtmp`) takes the encoders' RTMP, cuts it into AES-128 HLS and records it; the app
 * keeps deciding who may publish (nginx's `on_publish` calls the app with the stream key) and who
 * may watch (the protected HLS delivery serves the engine's playlist and key, with the entitlement
 * rule on every request, exactly like the built-in path).
 *
 * The flow: OBS publishes `rtmp://engine/live/<stream key>`; nginx asks
 * `POST /api/v1/lives/engine/publish?secret=…` (name = the key); the app answers 403, or a 302 to
 * `<relayUrl>/<liveId>`, which makes nginx relay the stream to its `hls` application under the
 * live's id — so the engine's files are `<hlsDir>/<liveId>/index.m3u8`, `<n>.ts`, `<n>.key` and
 * `<recordDir>/<liveId>.flv`, and the secret key never names a file.
 */
export interface NginxRtmpOptions {
  /** nginx's `hls_path` (with `hls_nested on`), readable by every app copy. */
  hlsDir: string;
  /** nginx's `record_path` of the `hls` application. */
  recordDir: string;
}

const ENGINE_SEGMENT = /^(\d{1,6})\.ts$/;
const KEY_URI = /^#EXT-X-KEY:.*URI="(\d{1,6})\.key"/;
const ID = /^[0-9a-f-]{36}$/;

export class NginxRtmpFiles {
  constructor(private readonly opts: NginxRtmpOptions) {}

  private dir(liveId: string): string | undefined {
    return ID.test(liveId) ? path.join(this.opts.hlsDir, liveId) : undefined;
  }

  /** Whether the engine has (had) this live's stream. */
  has(liveId: string): boolean {
    const dir = this.dir(liveId);
    return !!dir && fs.existsSync(path.join(dir, 'index.m3u8'));
  }

  private async read(liveId: string): Promise<string | null> {
    const dir = this.dir(liveId);
    return dir ? fs.promises.readFile(path.join(dir, 'index.m3u8'), 'utf8').catch(() => null) : null;
  }

  /**
   * The engine's rolling playlist in the delivery's terms: segments `<n>.ts` become `seg_<n>.ts`
   * and only the segments under the newest key are kept (a reconnecting encoder gets a new key; the
   * delivery has one key URL per rendition), so every listed segment decrypts with `key()`.
   */
  async playlist(liveId: string): Promise<string | null> {
    const text = await this.read(liveId);
    if (text === null) return null;
    const lines = text.split(/\r?\n/);
    let lastKey = -1;
    lines.forEach((l, i) => {
      if (KEY_URI.test(l)) lastKey = i;
    });
    const head: string[] = [];
    const body: string[] = [];
    lines.forEach((l, i) => {
      const isHeader = l.startsWith('#EXTM3U') || /^#EXT-X-(VERSION|TARGETDURATION|MEDIA-SEQUENCE)/.test(l);
      if (isHeader) head.push(l);
      else if (i >= lastKey) body.push(l.replace(ENGINE_SEGMENT, 'seg_$1.ts'));
    });
    // The media sequence of the first segment kept.
    const first = body.map((l) => /^seg_(\d+)\.ts$/.exec(l)?.[1]).find((n) => n !== undefined);
    return [
      ...head.map((l) =>
        first && l.startsWith('#EXT-X-MEDIA-SEQUENCE:') ? `#EXT-X-MEDIA-SEQUENCE:${first}` : l,
      ),
      ...body,
    ].join('\n');
  }

  /** The AES-128 key of the newest key period (the file nginx wrote next to the segments). */
  async key(liveId: string): Promise<Buffer | null> {
    const dir = this.dir(liveId);
    const text = await this.read(liveId);
    if (!dir || text === null) return null;
    const id = text
      .split(/\r?\n/)
      .map((l) => KEY_URI.exec(l)?.[1])
      .filter((n) => n !== undefined)
      .at(-1);
    if (id === undefined) return null;
    const key = await fs.promises.readFile(path.join(dir, `${id}.key`)).catch(() => null);
    return key?.length === 16 ? key : null;
  }

  /** A segment file (`seg_<n>.ts` in the delivery's terms), or undefined. */
  segment(liveId: string, name: string): string | undefined {
    const dir = this.dir(liveId);
    const n = /^seg_(\d{1,6})\.ts$/.exec(name)?.[1];
    if (!dir || n === undefined) return undefined;
    const file = path.join(dir, `${n}.ts`);
    return fs.existsSync(file) ? file : undefined;
  }

  /** The engine's recording of the live (FLV), when there is one. */
  recording(liveId: string): string | undefined {
    if (!ID.test(liveId)) return undefined;
    const file = path.join(this.opts.recordDir, `${liveId}.flv`);
    return fs.existsSync(file) && fs.statSync(file).size > 0 ? file : undefined;
  }

  /** Removes the engine's files of the live (its HLS folder and recording); missing ones are fine. */
  async remove(liveId: string): Promise<void> {
    const dir = this.dir(liveId);
    if (!dir) return;
    await fs.promises.rm(dir, { recursive: true, force: true });
    await fs.promises.rm(path.join(this.opts.recordDir, `${liveId}.flv`), { force: true });
  }
}

/** A stream being published to the engine, as its statistics page lists it. */
export interface EnginePublisher {
  app: string;
  /** The stream name: in the `live` application, the creator's stream key. */
  name: string;
}

/**
 * The engine's HTTP control (`rtmp_control` at `<base>/control`, `rtmp_stat` at `<base>/stat`):
 * which streams are published, and dropping a publisher's connection. nginx answers these in the
 * worker that got the request, so the engine runs one worker (docs/deploy.md).
 */
export class NginxRtmpControl {
  constructor(private readonly baseUrl: string) {}

  private async get(pathAndQuery: string): Promise<Response> {
    const res = await fetch(`${this.baseUrl}${pathAndQuery}`, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`nginx-rtmp control ${pathAndQuery.split('?')[0]}: HTTP ${res.status}`);
    return res;
  }

  /** The streams with a publisher now (from the `rtmp_stat` XML). */
  async publishers(): Promise<EnginePublisher[]> {
    const xml = await (await this.get('/stat')).text();
    const found: EnginePublisher[] = [];
    for (const app of xml.match(/<application>[\s\S]*?<\/application>/g) ?? []) {
      const appName = /<name>([^<]*)<\/name>/.exec(app)?.[1] ?? '';
      for (const stream of app.match(/<stream>[\s\S]*?<\/stream>/g) ?? []) {
        const name = /<name>([^<]*)<\/name>/.exec(stream)?.[1];
        if (name && /<publishing\/>/.test(stream)) found.push({ app: appName, name });
      }
    }
    return found;
  }

  /** Closes the publisher's connection (the encoder sees the server hang up); answers how many. */
  async dropPublisher(app: string, name: string): Promise<number> {
    const query = new URLSearchParams({ app, name });
    return Number(await (await this.get(`/control/drop/publisher?${query}`)).text()) || 0;
  }
}

/**
 * The HTTP `server {}` of the engine's control and statistics (goes into nginx.conf's `http {}`);
 * loopback or a private address only: whoever reaches it can drop any stream.
 */
export function nginxControlServer(listen: string): string {
  return `server {
  listen ${listen};
  location /control { rtmp_control all; }
  location /stat { rtmp_stat all; }
}
`;
}

/**
 * An nginx configuration for the engine (the `rtmp {}` part goes into nginx.conf with
 * `load_module modules/ngx_rtmp_module.so;`, which Debian's package adds). docs/deploy.md shows it;
 * the engine test runs nginx with it.
 */
export function nginxRtmpConfig(o: {
  /** Address nginx listens on for RTMP, e.g. `0.0.0.0:1935`. */
  listen: string;
  /** The app's publish check, with the secret: `https://app/api/v1/lives/engine/publish?secret=…`. */
  onPublish: string;
  hlsDir: string;
  recordDir: string;
  /** HLS segment length in seconds (LIVE_SEGMENT_SECONDS). */
  segmentSeconds: number;
}): string {
  const ms = Math.round(o.segmentSeconds * 1000);
  return `rtmp {
  server {
    listen ${o.listen};
    # Encoders publish here with the creator's stream key; the app answers 403 or a relay to hls/<live id>.
    application live {
      live on;
      on_publish ${o.onPublish};
      deny play all;
    }
    # The relayed stream, under the live's id: encrypted HLS and the recording. Local publishers only.
    application hls {
      live on;
      allow publish 127.0.0.1;
      deny publish all;
      deny play all;
      hls on;
      hls_path ${o.hlsDir};
      hls_nested on;
      hls_fragment ${ms}ms;
      hls_playlist_length ${Math.max(3, Math.ceil(o.segmentSeconds * 6))}s;
      hls_fragment_naming sequential;
      hls_keys on;
      hls_fragments_per_key 0;
      record all;
      record_path ${o.recordDir};
      record_suffix .flv;
      record_append on;
    }
  }
}
`;
}
