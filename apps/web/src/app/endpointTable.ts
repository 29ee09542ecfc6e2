import { type EndpointDef, type EndpointName, endpoints } from '@fanverse/contract';

/** What the client needs to call an endpoint; `output` (a zod schema) only where answers are checked. */
export type EndpointRoute = Pick<EndpointDef, 'method' | 'path' | 'multipart'> & {
  output?: EndpointDef['output'];
};

/**
 * Every endpoint of the contract as the API client calls it. In development and tests it is the
 * contract itself, so every answer is checked against its schema. The production build replaces
 * this module with the routes alone (method, path, multipart: the `fanverse-endpoint-routes`
 * plugin of vite.config.ts), which keeps zod and the schemas out of the first load; the server's
 * tests check its answers against the same schemas.
 */
export const endpointTable: Record<EndpointName, EndpointRoute> = endpoints;
