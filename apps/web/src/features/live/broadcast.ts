import { getSocket } from '../../app/socket.ts';

/**
 * The creator's browser broadcast: MediaRecorder cuts the camera and microphone into WebM chunks
 * every half second and sends them, in order, over the app's socket (`liveChunk`); the server's
 * ffmpeg turns them into HLS. Kept outside React so that moving from the Go live page to the live
 * page does not stop the recorder.
 */
let current: { liveId: string; recorder: MediaRecorder; stream: MediaStream } | null = null;

const TYPES = ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp8', 'video/webm'];

export function broadcasting(liveId: string): MediaStream | null {
  return current?.liveId === liveId ? current.stream : null;
}

export function startBroadcast(liveId: string, stream: MediaStream): void {
  stopBroadcast();
  const mimeType = TYPES.find((t) => MediaRecorder.isTypeSupported(t));
  const recorder = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: 2_500_000 });
  // Chunks go out one after another: the next waits for the server's answer to the previous one.
  let queue = Promise.resolve();
  recorder.ondataavailable = (e) => {
    if (!e.data.size) return;
    queue = queue.then(async () => {
      const buffer = await e.data.arrayBuffer();
      await getSocket()
        ?.timeout(10_000)
        .emitWithAck('liveChunk', liveId, buffer)
        .catch(() => false);
    });
  };
  // 500 ms: bench:live measured 250 ms chunks slower on a busy machine (each waits for the previous ack).
  recorder.start(500);
  current = { liveId, recorder, stream };
}

export function stopBroadcast(): void {
  if (!current) return;
  if (current.recorder.state !== 'inactive') current.recorder.stop();
  for (const track of current.stream.getTracks()) track.stop();
  current = null;
}
