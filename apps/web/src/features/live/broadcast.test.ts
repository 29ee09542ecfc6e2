import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The app's socket, as far as the broadcast uses it: connect/disconnect events and acked emits. */
const sent: { liveId: string; bytes: number[] }[] = [];
const listeners = new Map<string, Set<() => void>>();
const socket = {
  connected: true,
  on(event: string, fn: () => void) {
    listeners.set(event, (listeners.get(event) ?? new Set()).add(fn));
  },
  off(event: string, fn: () => void) {
    listeners.get(event)?.delete(fn);
  },
  fire(event: string) {
    for (const fn of listeners.get(event) ?? []) fn();
  },
  timeout: () => ({
    emitWithAck: async (_event: string, liveId: string, buffer: ArrayBuffer) => {
      sent.push({ liveId, bytes: [...new Uint8Array(buffer)] });
      return true;
    },
  }),
};
vi.mock('../../app/socket.ts', () => ({ getSocket: () => socket }));

class FakeRecorder {
  static instances: FakeRecorder[] = [];
  static isTypeSupported = () => true;
  state: 'inactive' | 'recording' = 'inactive';
  ondataavailable: ((e: { data: { size: number; arrayBuffer(): Promise<ArrayBuffer> } }) => void) | null =
    null;
  constructor() {
    FakeRecorder.instances.push(this);
  }
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
  }
  /** The recorder hands over a chunk (the first byte says which recorder it came from). */
  emit(byte: number) {
    const data = new Uint8Array([byte]);
    this.ondataavailable?.({ data: { size: 1, arrayBuffer: async () => data.buffer } });
  }
}

const stream = { getTracks: () => [] } as unknown as MediaStream;
const settle = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  FakeRecorder.instances = [];
  sent.length = 0;
  listeners.clear();
  socket.connected = true;
});
afterEach(() => vi.unstubAllGlobals());

describe('browser broadcast', () => {
  it('starts a new recorder when the socket reconnects; the old one is stopped and its chunks dropped', async () => {
    const { startBroadcast, stopBroadcast } = await import('./broadcast.ts');
    startBroadcast('live-1', stream);
    const [first] = FakeRecorder.instances;
    first?.emit(1);
    await settle();
    expect(sent).toEqual([{ liveId: 'live-1', bytes: [1] }]);

    socket.fire('disconnect');
    socket.fire('connect');
    const second = FakeRecorder.instances[1];
    expect(second?.state).toBe('recording');
    expect(first?.state).toBe('inactive');
    // The old recorder's last chunk (its stop) is not sent; the new one's (a new WebM header) is.
    first?.emit(1);
    second?.emit(2);
    await settle();
    await settle();
    expect(sent.map((s) => s.bytes[0])).toEqual([1, 2]);

    // A connect without a disconnect before it (the first one) starts nothing.
    socket.fire('connect');
    expect(FakeRecorder.instances).toHaveLength(2);

    stopBroadcast();
    expect(second?.state).toBe('inactive');
    socket.fire('disconnect');
    socket.fire('connect');
    expect(FakeRecorder.instances).toHaveLength(2);
  });
});
