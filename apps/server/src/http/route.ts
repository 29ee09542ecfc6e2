import {
  type EndpointName,
  type EndpointOutput,
  type Endpoints,
  endpoints,
  type Language,
} from '@fanverse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from './app-error.ts';
import type { AuthInfo, Guard } from './guards.ts';
import { requestLanguage } from './language.ts';

type InputOf<N extends EndpointName> = Endpoints[N] extends { input: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;
type AuthOf<N extends EndpointName> = Endpoints[N]['auth'] extends 'required'
  ? AuthInfo
  : Endpoints[N]['auth'] extends 'optional'
    ? AuthInfo | null
    : null;

export interface RouteContext<N extends EndpointName> {
  input: InputOf<N>;
  auth: AuthOf<N>;
  lang: Language;
  /** The caller's network address (for rate limits; never logged with personal data). */
  ip: string;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** Resolves a request's session; answers null for anonymous callers, throws for a bad token. */
export type Authenticator = (req: FastifyRequest) => Promise<AuthInfo | null>;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthInfo | null;
  }
}

/**
 * Registers the route of a contract endpoint: authenticates as the endpoint says, checks the
 * guard, parses the input with the contract schema, calls the handler and shapes the answer with
 * the output schema (unknown keys are stripped, so raw rows never leave the server).
 */
export function defineRoute<N extends EndpointName>(
  app: FastifyInstance,
  authenticate: Authenticator,
  name: N,
  handler: (ctx: RouteContext<N>) => Promise<EndpointOutput<N>>,
  options: { guard?: Guard } = {},
): void {
  const def = endpoints[name];
  const input = 'input' in def ? (def.input as z.ZodType) : undefined;
  app.route({
    method: def.method,
    url: `/api/v1${def.path}`,
    handler: async (req, reply) => {
      let auth: AuthInfo | null = null;
      if (def.auth !== 'none') {
        try {
          auth = await authenticate(req);
        } catch (err) {
          // A stale token on an endpoint that works anonymously is simply ignored.
          const stale = err instanceof AppError && err.code === 'INVALID_TOKEN';
          if (def.auth === 'required' || !stale) throw err;
        }
      }
      if (def.auth === 'required' && !auth) throw new AppError('UNAUTHENTICATED');
      if (options.guard && (!auth || !options.guard(auth))) throw new AppError('FORBIDDEN');
      req.auth = auth;
      const raw =
        (def.method as string) === 'GET' || (def.method as string) === 'DELETE'
          ? req.query
          : (req.body ?? {});
      const parsed = input ? input.parse(raw) : undefined;
      const result = await handler({
        input: parsed as InputOf<N>,
        auth: auth as AuthOf<N>,
        lang: requestLanguage(req),
        ip: req.ip,
        req,
        reply,
      });
      return def.output.parse(result);
    },
  });
}
