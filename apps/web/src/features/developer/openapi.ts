import { useQuery } from '@tanstack/react-query';
// The API reference is a built asset of its own (fetched when the developer view opens), never
// part of a script chunk: the first load and the view's chunk stay small (ADR 0034).
import specUrl from '../../../../../docs/api/openapi.json?url';

export { specUrl };

/** The parts of a JSON Schema (OpenAPI 3.0 flavour, as zod writes it) the reference draws. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  format?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  const?: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
  'x-token-scope'?: string;
}

export interface OpenApi {
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
}

/** One operation with its method and path, in the order of the document. */
export interface Endpoint {
  method: string;
  path: string;
  op: Operation;
}

export function endpointsOf(spec: OpenApi): Endpoint[] {
  return Object.entries(spec.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
}

export function useOpenApi() {
  return useQuery({
    queryKey: ['openapi'],
    queryFn: async ({ signal }) => {
      const res = await fetch(specUrl, { signal });
      if (!res.ok) throw new Error(`openapi.json: ${res.status}`);
      return (await res.json()) as OpenApi;
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}

/** A placeholder value of a schema, for example request bodies. */
export function sampleOf(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt?.length) return sampleOf(alt.find((s) => s.type !== 'null') ?? alt[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, sampleOf(schema.properties?.[key], depth + 1)]),
      );
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return schema.minimum !== undefined && Math.abs(schema.minimum) < Number.MAX_SAFE_INTEGER
        ? schema.minimum
        : 1;
    case 'boolean':
      return true;
    case 'string':
      return schema.format === 'uuid' ? '00000000-0000-4000-8000-000000000000' : 'text';
    default:
      return null;
  }
}
