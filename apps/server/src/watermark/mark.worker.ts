import { workerData } from 'node:worker_threads';
import { type Detection, detectMark, embedMark, WatermarkKey } from './mark.ts';

/**
 * A thread of the watermark pool (ADR 0026, `MarkPool` in watermarker.ts). Marking a 2048 px
 * picture is seconds of JavaScript arithmetic; here it runs beside the server's event loop instead
 * of on it. The key's patterns are derived once per thread from the server secret.
 */
const key = new WatermarkKey((workerData as { secret: string }).secret);

export type MarkTask =
  | { op: 'embed'; input: Uint8Array; markId: number }
  | { op: 'detect'; input: Uint8Array };

export default async function run(task: MarkTask): Promise<Uint8Array | Detection> {
  const input = Buffer.from(task.input.buffer, task.input.byteOffset, task.input.byteLength);
  return task.op === 'embed' ? embedMark(input, key, task.markId) : detectMark(input, key);
}
