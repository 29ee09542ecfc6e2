import { getSocket } from '../../app/socket.ts';

/**
 * The creator's browser broadcast: MediaRecorder cuts the camera and microphone into WebM chunks
 * every half second and sends them, in order, over the app's socket (`liveChunk`); the server's
 * ffmpeg turns them into HLS. Kept outside React so that moving from the Go live page to the live
 * page does not stop the recorder.
 *
 * When the socket reconnects (a network drop, or the server copy went away and the load balancer
 * picked another), the recorder starts again: its first chunk carries a new WebM header, so
 * whichever copy the socket reached can decode the stream, and the server resumes the live's
 * playlist (ADR 0025). Chunks of the previous recorder still in flight are refused by the server.
 */
let current: {
  liveId: string;
  recorder: MediaRecorder;
  stream: MediaStream;
  detach: () => void;
} | null = null;

const TYPES = ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp8', 'video/webm'];

export function broadcasting(liveId: string): MediaStream | null {
  return current?.liveId === liveId ? current.stream : null;
}

function record(liveId: string, stream: MediaStream): MediaRecorder {
  const mimeType = TYPES.find((t) => MediaRecorder.isTypeSupported(t));
  const recorder = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: 2_500_000 });
  // Chunks go out one after another: the next waits for the server's answer to the previous one.
  let queue = Promise.resolve();
  recorder.ondataavailable = (e) => {
    if (!e.data.size || current?.recorder !== recorder) return;
    queue = queue.then(async () => {
      const buffer = await e.data.arrayBuffer();
      await getSocket()
        ?.timeout(10_000)
        .emitWithAck('liveChunk', liveId, buffer)
        .catch(() => false);
    });
  };
  // 500 ms: bench:live measured 250 ms chunks less steady on a busy machine (each waits for the previous ack).
  recorder.start(500);
  return recorder;
}

export function startBroadcast(liveId: string, stream: MediaStream): void {
  stopBroadcast();
  const socket = getSocket();
  let connected = socket?.connected ?? false;
  const onConnect = () => {
    if (connected) return;
    connected = true;
    if (current?.liveId !== liveId) return;
    // Replaced first, so that the old recorder's last chunk is not sent.
    const old = current.recorder;
    current.recorder = record(liveId, stream);
    if (old.state !== 'inactive') old.stop();
  };
  const onDisconnect = () => {
    connected = false;
  };
  socket?.on('connect', onConnect);
  socket?.on('disconnect', onDisconnect);
  current = {
    liveId,
    stream,
    recorder: null as unknown as MediaRecorder,
    detach: () => {
      socket?.off('connect', onConnect);
      socket?.off('disconnect', onDisconnect);
    },
  };
  current.recorder = record(liveId, stream);
}

export function stopBroadcast(): void {
  if (!current) return;
  current.detach();
  const { recorder, stream } = current;
  current = null;
  if (recorder.state !== 'inactive') recorder.stop();
  for (const track of stream.getTracks()) track.stop();
}
