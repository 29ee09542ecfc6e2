/**
 * Generates docs/api/openapi.json from the contract's endpoint map (zod → JSON Schema).
 * `--check` fails when the committed file is out of date (run by `npm run lint`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { type EndpointName, ERRORS, endpoints, tokenScopeOf } from '@fanverse/contract';
import { z } from 'zod';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'docs/api/openapi.json');

function schemaOf(s: z.ZodType, io: 'input' | 'output'): unknown {
  try {
    return z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'openapi-3.0' });
  } catch {
    return { description: 'not representable in JSON Schema' };
  }
}

function build() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, def] of Object.entries(endpoints) as [
    string,
    (typeof endpoints)[keyof typeof endpoints],
  ][]) {
    const d = def as typeof def & { input?: z.ZodType; params?: z.ZodType; multipart?: boolean };
    const url = `/api/v1${d.path}`.replace(/:(\w+)/g, '{$1}');
    const op: Record<string, unknown> = {
      operationId: name,
      summary: d.summary,
      tags: [name.split('.')[0]],
      security:
        d.auth === 'required'
          ? [{ token: [] }, { bearer: [] }]
          : d.auth === 'optional'
            ? [{}, { token: [] }]
            : [],
      responses: {
        '200': {
          description: 'OK',
          content: { 'application/json': { schema: schemaOf(d.output, 'output') } },
        },
        default: {
          description: 'Error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    };
    const params = [...d.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (d.input && d.method === 'GET') {
      const js = schemaOf(d.input, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [k, v] of Object.entries(js.properties ?? {})) {
        params.push({
          name: k,
          in: 'query',
          required: js.required?.includes(k) ?? false,
          schema: v as { type: string },
        });
      }
    } else if (d.input) {
      const type = d.multipart ? 'multipart/form-data' : 'application/json';
      op.requestBody = { required: true, content: { [type]: { schema: schemaOf(d.input, 'input') } } };
    }
    if (params.length) op.parameters = params;
    // The scope a personal API token needs here (contract TOKEN_SCOPES); absent: no token may call it.
    const scope = tokenScopeOf(name as EndpointName);
    if (scope) op['x-token-scope'] = scope;
    paths[url] ??= {};
    paths[url][d.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Fanverse API',
      version: '1',
      description:
        'Generated from packages/contract by `npm run api:reference`. Errors answer {code, message, fields?} in the language of the `ilang` header.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        token: { type: 'apiKey', in: 'header', name: 'a1sledom' },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A session token, or a personal API token (`fv_…`, made in the developer view) that reaches only the operations whose `x-token-scope` it was granted.',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'string', enum: Object.keys(ERRORS) },
            message: { type: 'string' },
            fields: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
      },
    },
    paths,
  };
}

const text = `${JSON.stringify(build(), null, 2)}\n`;
if (process.argv.includes('--check')) {
  const current = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
  if (current !== text) {
    console.error('docs/api/openapi.json is out of date: run `npm run api:reference` and commit it.');
    process.exit(1);
  }
  console.info('API reference is up to date.');
} else {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, text);
  console.info(`Wrote ${path.relative(root, out)} (${Object.keys(build().paths).length} paths).`);
}
