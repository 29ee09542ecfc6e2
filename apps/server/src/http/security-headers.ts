import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
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
 * and written straight onto the response: helmet's middleware chain per request was a visible share
 * of a small answer's cost (issue 13, docs/benchmarks.md).
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  document: Readonly<HelmetOptions>,
  documentAt: { prefix: string; options: Readonly<HelmetOptions> }[] = [],
): void {
  const documents = documentAt.map((d) => ({ prefix: d.prefix, headers: headersOf(d.options) }));
  const documentHeaders = headersOf(document);
  const write = (res: ServerResponse, headers: Headers) => {
    for (const [name, value] of headers) res.setHeader(name, value);
  };
  app.addHook('onSend', (req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      const special = documents.find((d) => req.url.startsWith(d.prefix));
      write(reply.raw, special ? special.headers : documentHeaders);
    } else {
      write(reply.raw, NOT_A_DOCUMENT);
    }
    done(null, payload);
  });
}
