import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';

/** The path of a request without its query string: query strings can carry reset codes and search words. */
export const pathOf = (url: string): string => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/** Told of each answered request (OneLinePerRequest.onCompleted). */
export type CompletedListener = (request: FastifyRequest, reply: FastifyReply) => void;

/** pino's number for `info`: the request line is written at this level. */
const INFO = pino.levels.values.info as number;

interface PinoLogger {
  levelVal: number;
  [key: symbol]: unknown;
}

/**
 * One log line per request, when it is answered (method, path, status, time taken), instead of
 * Fastify's two (incoming and completed); errors are logged as Fastify does, through pino.
 *
 * The line of an answered request is the hottest log call of the server, so it is written here,
 * not by `log.info({ req, res, responseTime }, …)`: pino applies the serializers and stringifies
 * the object on each call, about a sixth of the start-up call's CPU (issue 13). The line is the
 * one pino would write, field for field (a test holds the two to each other): pino's level number,
 * time in epoch milliseconds, the request logger's own bindings (pid, hostname, reqId) as pino
 * keeps them already serialized, then `req` (method and path only, as the app's `req` serializer),
 * `res` (status code), `responseTime` and `msg`. It goes to the logger's own destination, so a
 * test's `logTo` and the batched stream receive it alike.
 */
export class OneLinePerRequest extends LogController {
  private readonly completed: CompletedListener[] = [];

  /**
   * Runs `listener` for every answered request, logged or not (the request duration metric,
   * http/metrics.ts). Fastify tells the controller of every answered request when the app has a
   * logger, which it always has (app.ts: a silent one when logs are off); an `onResponse` hook
   * instead made Fastify run its hook chain for each request (with the metric, about 3 µs of the
   * start-up call's 33, issue 13).
   */
  onCompleted(listener: CompletedListener): void {
    this.completed.push(listener);
  }

  override incomingRequest(): void {}

  /** Fastify's default 404 handler logs the raw URL, query string included: the path only here. */
  override routeNotFound(request: FastifyRequest): void {
    request.log.info(`Route ${request.method}:${pathOf(request.url)} not found`);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    for (const listener of this.completed) listener(request, reply);
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    const log = reply.log as unknown as PinoLogger;
    if (log.levelVal > INFO) return;
    const destination = log[pino.symbols.streamSym] as { write(line: string): void } | undefined;
    const bindings = log[pino.symbols.chindingsSym];
    if (!destination || typeof bindings !== 'string') {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
      return;
    }
    destination.write(
      `{"level":${INFO},"time":${Date.now()}${bindings},"req":{"method":${JSON.stringify(request.method)},"url":${JSON.stringify(pathOf(request.url))}},"res":{"statusCode":${reply.statusCode}},"responseTime":${reply.elapsedTime},"msg":"request completed"}\n`,
    );
  }
}

/** The app's `req` serializer: method and path only, never headers (tokens, cookies) nor the query. */
export const requestSerializer = (req: { method: string; url: string }) => ({
  method: req.method,
  url: pathOf(req.url),
});
