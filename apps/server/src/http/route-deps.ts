import type { EndpointName, EndpointOutput } from '@fanverse/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Services } from '../services.ts';
import type { Authenticator, RouteContext, RouteOptions } from './route.ts';

/** What a module's route file receives. */
export interface RouteDeps {
  app: FastifyInstance;
  config: Config;
  services: Services;
  /** For the few routes that are not contract endpoints (file streams). */
  authenticate: Authenticator;
  route: <N extends EndpointName>(
    name: N,
    handler: (ctx: RouteContext<N>) => Promise<EndpointOutput<N>>,
    options?: RouteOptions,
  ) => void;
}
