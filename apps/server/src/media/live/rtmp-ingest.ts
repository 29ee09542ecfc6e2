import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

/** The part of node-media-server's session this module reads. */
interface NmsSession {
  ip: string;
  streamApp: string;
  streamName: string;
  close(): void;
}
interface Nms {
  on(event: string, listener: (session: NmsSession) => void): void;
  run(): Promise<void>;
  stop(): Promise<void>;
}

export interface RtmpIngestOptions {
  port: number;
  host: string;
  /** node-media-server's own small state files. */
  dir: string;
  /** The live a publish with this stream key goes to, or undefined (the connection is closed). */
  liveForKey(key: string): Promise<string | undefined>;
  /** A publisher of this live was accepted: start pulling it into HLS from `url`. */
  started(liveId: string, url: string): void;
  /** The publisher (pulled from `url`) went away. */
  stopped(liveId: string, url: string): void;
  log?: (msg: string, data?: Record<string, unknown>) => void;
}

const require = createRequire(import.meta.url);
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Whether something already listens on the port (node-media-server exits the process on EADDRINUSE). */
function portFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/**
 * RTMP ingest for OBS and other encoders (ADR 0025), on node-media-server 4.4.3: encoders publish to
 * `rtmp://<host>:<port>/live` with the creator's stream key as the stream name. A publish is
 * accepted only when the key's hash belongs to a creator whose RTMP live is on; anything else is
 * closed at once. Playing from this server is allowed to this machine only (our ffmpeg pulls the
 * stream into HLS); viewers never talk RTMP.
 */
export class RtmpIngest {
  private nms: Nms | undefined;
  /** Live id by the publishing session, so the end of a publish ends the right pull. */
  private readonly publishing = new Map<NmsSession, { liveId: string; url: string }>();

  constructor(private readonly opts: RtmpIngestOptions) {}

  async start(): Promise<boolean> {
    if (!(await portFree(this.opts.port, this.opts.host))) {
      this.opts.log?.('RTMP ingest not started: the port is in use', { port: this.opts.port });
      return false;
    }
    const NodeMediaServer = require('node-media-server') as new (config: unknown) => Nms;
    const logger = require('node-media-server/src/core/logger.js') as { level: string };
    const nms = new NodeMediaServer({
      bind: this.opts.host,
      rtmp: { port: this.opts.port, chunk_size: 60000, gop_cache: true, ping: 30, ping_timeout: 60 },
      store: { path: path.join(this.opts.dir, 'rtmp-state') },
    });
    logger.level = 'error';
    nms.on('prePlay', (session) => {
      if (!LOOPBACK.test(session.ip)) session.close();
    });
    nms.on('prePublish', (session) => {
      const key = session.streamName;
      void this.opts
        .liveForKey(session.streamApp === 'live' ? key : '')
        .catch(() => undefined)
        .then((liveId) => {
          if (!liveId) {
            this.opts.log?.('RTMP publish refused: unknown stream key or no RTMP live on');
            session.close();
            return;
          }
          const url = `rtmp://127.0.0.1:${this.opts.port}/live/${key}`;
          this.publishing.set(session, { liveId, url });
          // Give node-media-server a moment to register the publisher before our ffmpeg plays it.
          setTimeout(() => this.opts.started(liveId, url), 300);
        });
    });
    nms.on('donePublish', (session) => {
      const publishing = this.publishing.get(session);
      this.publishing.delete(session);
      if (publishing) this.opts.stopped(publishing.liveId, publishing.url);
    });
    await nms.run();
    this.nms = nms;
    return true;
  }

  async stop(): Promise<void> {
    await this.nms?.stop();
    this.nms = undefined;
  }
}
