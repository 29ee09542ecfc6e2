import type { EndpointName, EndpointOutput } from '@fanverse/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Services } from '../services.ts';
import type { Guard } from './guards.ts';
import type { RouteContext } from './route.ts';

/** What a module's route file receives. */
export interface RouteDeps {
  app: FastifyInstance;
  config: Config;
  services: Services;
  route: <N extends EndpointName>(
    name: N,
    handler: (ctx: RouteContext<N>) => Promise<EndpointOutput<N>>,
    options?: { guard?: Guard },
  ) => void;
}
