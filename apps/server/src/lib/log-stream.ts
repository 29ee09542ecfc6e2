import pino from 'pino';

/** The server's log destination (app.ts): pino writes each line to it. */
export interface LogStream {
  write(line: string): void;
  /** Hands the gathered lines on now; `done` runs once they have been written out. */
  flush(done?: (err?: Error) => void): void;
  /** Flushes and stops the timer and exit hooks (the app's onClose). */
  close(): Promise<void>;
}

/**
 * Log lines written asynchronously to a file descriptor (stdout by default), in batches (issue 13).
 *
 * A synchronous write per line cost about a quarter of a busy server's CPU, so lines go through
 * pino's asynchronous destination (sonic-boom), which keeps its robustness: partial writes,
 * EAGAIN from a full pipe retried without blocking, EPIPE silenced, everything written
 * synchronously when the process exits. But sonic-boom measures the UTF-8 length of its whole
 * pending buffer on every line it is given (`Buffer.byteLength` of a string that grows line by
 * line), so the bigger its buffer, the more each line costs: with 4 KB gathered it was 8 % of the
 * fan's feed and, at 32 KB, 10 % of the start-up call. Here lines are gathered in an array and
 * handed to sonic-boom as one string per batch (`batchChars`, and at least every `flushMs`): one
 * measure and one `write` for a few hundred requests.
 *
 * On exit the gathered lines are handed on before sonic-boom's own exit hook writes them out
 * (`prependListener`), so a `process.exit()` loses nothing; a crash of the process itself (a kill)
 * loses at most `flushMs` of lines. One batch may land out of order at such an exit: the one the
 * thread pool is still writing, which the process cannot wait for; what sonic-boom writes
 * synchronously at exit can overtake it. Every line carries its time.
 */
export function batchedLogStream(
  options: { fd?: number; batchChars?: number; flushMs?: number } = {},
): LogStream {
  const batchChars = options.batchChars ?? 32_768;
  // minLength 1: each batch is written as soon as the previous write is done, and flush(cb) waits
  // for the write in flight (with 0 it would answer at once).
  const sink = pino.destination({ dest: options.fd ?? 1, sync: false, minLength: 1 });
  let lines: string[] = [];
  let size = 0;
  const pass = () => {
    if (!lines.length) return;
    const batch = lines.join('');
    lines = [];
    size = 0;
    sink.write(batch);
  };
  process.prependListener('exit', pass);
  process.prependListener('beforeExit', pass);
  const timer = setInterval(pass, options.flushMs ?? 1000).unref();
  const flush = (done?: (err?: Error) => void) => {
    pass();
    if (done) sink.flush((err) => done(err ?? undefined));
  };
  return {
    write(line) {
      lines.push(line);
      size += line.length;
      if (size >= batchChars) pass();
    },
    flush,
    close() {
      clearInterval(timer);
      process.off('exit', pass);
      process.off('beforeExit', pass);
      // An fd that cannot be synced (a pipe, /dev/null) answers the flush with an error: the lines
      // were written all the same.
      return new Promise((resolve) => flush(() => resolve()));
    },
  };
}
