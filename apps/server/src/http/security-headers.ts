import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

type Headers = readonly (readonly [string, string])[];

/** The headers helmet sets with these options, read once (helmet is a middleware: run on a stand-in). */
function headersOf(options: Readonly<HelmetOptions>): Headers {
  const set: [string, string][] = [];
  const res = {
    setHeader: (name: string, value: string) => set.push([name.toLowerCase(), String(value)]),
    removeHeader: () => {},
  };
  helmet(options)({} as never, res as never, () => {});
  return set;
}

/**
 * Answers that are not documents (JSON, files, media segments): nothing in them may run or be
 * framed, whatever a browser makes of them (OWASP's REST headers). `default-src 'none'` is stricter
 * than the app's document policy, and short.
 */
const NOT_A_DOCUMENT: Headers = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['cross-origin-resource-policy', 'same-origin'],
  ['referrer-policy', 'no-referrer'],
  ['strict-transport-security', 'max-age=31536000; includeSubDomains'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];

/**
 * Security headers on every answer, by what it is: HTML documents get the app's full policy
 * (`document`, helmet's options; `documentAt` may pick other options by path, e.g. a page that must
 * keep its opener), everything else the short set above. The values are computed once at start-up
 * and set on the reply: helmet's middleware chain per request was a visible share of a small
 * answer's cost (issue 13, docs/benchmarks.md). They go with the reply's own headers, not onto the
 * raw response (`setHeader`): one header set there makes Node pass every header of the answer
 * through `setHeader` again when Fastify writes the head (start-up call 0.022 → 0.021 ms of CPU per
 * request in alternating runs).
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  document: Readonly<HelmetOptions>,
  documentAt: { prefix: string; options: Readonly<HelmetOptions> }[] = [],
): void {
  const documents = documentAt.map((d) => ({ prefix: d.prefix, headers: headersOf(d.options) }));
  const documentHeaders = headersOf(document);
  // A header the route set itself stays (signed media answer `cross-origin-resource-policy:
  // cross-origin`, to be embedded from the CDN's domain).
  const write = (reply: FastifyReply, headers: Headers) => {
    for (const [name, value] of headers) if (!reply.hasHeader(name)) reply.header(name, value);
  };
  app.addHook('onSend', (req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      const special = documents.find((d) => req.url.startsWith(d.prefix));
      write(reply, special ? special.headers : documentHeaders);
    } else {
      write(reply, NOT_A_DOCUMENT);
    }
    done(null, payload);
  });
}
