import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  /** The server's files: objects are really stored here, not in the app's MEDIA_DIR. */
  directory: string;
  /** The app's environment for this bucket. */
  env: Record<string, string>;
  /** Keys of every object in the bucket. */
  keys(): Promise<string[]>;
  /** Stops the server, keeping its files (the bucket is "away"). */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same files. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** An S3-compatible server (s3rver) on a free loopback port with one empty bucket. */
export async function startS3(bucket = 'fanverse-media'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-s3-'));
  const make = (port: number) =>
    new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
  let server = make(0);
  const { port } = (await server.run()) as { port: number };
  let running = true;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    env: {
      MEDIA_S3_BUCKET: bucket,
      MEDIA_S3_ENDPOINT: endpoint,
      MEDIA_S3_REGION: 'us-east-1',
      MEDIA_S3_ACCESS_KEY: 'S3RVER',
      MEDIA_S3_SECRET_KEY: 'S3RVER',
    },
    async keys() {
      const res = await fetch(`${endpoint}/${bucket}?list-type=2`);
      const xml = await res.text();
      return [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]!).sort();
    },
    async stop() {
      if (running) await server.close();
      running = false;
    },
    async restart() {
      server = make(port);
      await server.run();
      running = true;
    },
    async close() {
      if (running) await server.close();
      running = false;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
