import {
  type EndpointName,
  type EndpointOutput,
  type Endpoints,
  endpoints,
  type Language,
  nullBytePath,
  tokenScopeOf,
} from '@fanverse/contract';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { UploadedFile } from '../modules/posts/media.port.ts';
import { AppError } from './app-error.ts';
import { weakEtag } from './etag.ts';
import { type AuthInfo, checkGuard, type Guard } from './guards.ts';
import { acceptedEncoding, compressOnce } from './html.ts';
import { requestLanguage } from './language.ts';

type InputOf<N extends EndpointName> = Endpoints[N] extends { input: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;
type ParamsOf<N extends EndpointName> = Endpoints[N] extends { params: infer S extends z.ZodType }
  ? z.output<S>
  : Record<string, never>;
type AuthOf<N extends EndpointName> = Endpoints[N]['auth'] extends 'required'
  ? AuthInfo
  : Endpoints[N]['auth'] extends 'optional'
    ? AuthInfo | null
    : null;

export interface RouteContext<N extends EndpointName> {
  input: InputOf<N>;
  params: ParamsOf<N>;
  auth: AuthOf<N>;
  /** Files of a multipart endpoint, on disk until the request ends. */
  files: UploadedFile[];
  lang: Language;
  /** The caller's network address (for rate limits; never logged with personal data). */
  ip: string;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** Resolves a request's session; answers null for anonymous callers, throws for a bad token. */
export type Authenticator = (req: FastifyRequest) => Promise<AuthInfo | null>;

/** Reads a multipart request into text fields and files on disk; `cleanup` removes the files. */
export type MultipartReader = (
  req: FastifyRequest,
) => Promise<{ fields: Record<string, string | string[]>; files: UploadedFile[]; cleanup(): Promise<void> }>;

export interface RouteEnv {
  authenticate: Authenticator;
  readMultipart?: MultipartReader;
  /**
   * Where endpoints that take files are registered: the scope with @fastify/multipart (app.ts).
   * Other endpoints are registered on `app`, without its hooks. Defaults to `app`.
   */
  uploads?: FastifyInstance;
  /**
   * How answers are shaped: `validate` parses each answer with the contract's output schema
   * (tests and development: a wrong answer fails loudly); `serialize` compiles that schema once
   * into a JSON serializer (production: unknown keys are still dropped, nothing is re-validated).
   */
  output?: OutputMode;
}

/** How the API's answers are shaped (RouteEnv.output): compiled serializers in production only. */
export type OutputMode = 'validate' | 'serialize';

export function outputModeOf(env: string): OutputMode {
  return env === 'production' ? 'serialize' : 'validate';
}

/** The output schema as draft-07 JSON Schema for the route's serializer; undefined if not representable. */
function responseSchema(output: z.ZodType): Record<string, unknown> | undefined {
  try {
    return z.toJSONSchema(output, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }) as Record<
      string,
      unknown
    >;
  } catch {
    return undefined; // transforms: keep parsing with zod
  }
}

/**
 * How an endpoint's answers are shaped in one output mode: the route's reply and anything else that
 * hands out an answer as the endpoint would (the first view, http/first-view.ts) use this one.
 */
export interface AnswerFormat<N extends EndpointName> {
  /** The JSON Schema the serializer is compiled from (serialize mode, when representable); else zod parses. */
  schema?: Record<string, unknown>;
  /** The answer's JSON, without the keys the endpoint does not show. */
  json(answer: EndpointOutput<N>): string;
  /** The answer as the client receives it (the object its JSON reads back to). */
  shape(answer: EndpointOutput<N>): EndpointOutput<N>;
}

const formats: Record<OutputMode, Map<EndpointName, AnswerFormat<EndpointName>>> = {
  validate: new Map(),
  serialize: new Map(),
};

/**
 * The answer format of an endpoint (made once per endpoint and mode): `validate` parses with the
 * contract's output schema (a wrong answer fails loudly); `serialize` compiles that schema once
 * into a JSON serializer (unknown keys are still dropped, nothing is re-validated).
 */
export function answerFormat<N extends EndpointName>(
  name: N,
  mode: OutputMode = 'validate',
): AnswerFormat<N> {
  let format = formats[mode].get(name);
  if (!format) {
    const output: z.ZodType = endpoints[name].output;
    const schema = mode === 'serialize' ? responseSchema(output) : undefined;
    if (schema) {
      const stringify = fastJsonStringify(schema) as (answer: unknown) => string;
      format = { schema, json: stringify, shape: (answer) => JSON.parse(stringify(answer)) };
    } else {
      format = {
        json: (answer) => JSON.stringify(output.parse(answer)),
        shape: (answer) => output.parse(answer) as EndpointOutput<EndpointName>,
      };
    }
    formats[mode].set(name, format);
  }
  return format as unknown as AnswerFormat<N>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthInfo | null;
  }
}

export interface RouteOptions {
  guard?: Guard;
  /**
   * The handler answers many callers with the same object (e.g. one built once a second, or a
   * cached shared feed): the JSON and ETag made of an answer are kept with it (a WeakMap) and sent
   * again as they are, not serialized and hashed per request.
   */
  shared?: boolean;
}

/** A shared answer as sent: its JSON, tag and compressed twins (each made when first asked for). */
interface SharedAnswer {
  text: string;
  /** Whether it has been sent before. */
  sent: boolean;
  /** The JSON's UTF-8 bytes, encoded once when the answer is sent a second time. */
  bytes?: Buffer;
  etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * The body of a shared answer for this request: compressed when the client accepts it (the
 * compress plugin leaves an answer that says its encoding alone) and the JSON is worth it, the
 * compressed twin made once per answer.
 *
 * Uncompressed, an answer's first sending is its text: Node writes a text body with its headers
 * in one call, where a buffer made for it (outside the JS heap, more work for the collector) went
 * with the headers by `writev`. On a fan's own page, sent once, the buffer cost a fifth of the
 * server's CPU per request (issue 13: 0.147–0.150 → 0.113–0.123 ms in alternating runs). From the
 * second sending on (the visitors' shared page) it is the bytes encoded once, not the text encoded
 * again for every request (10–15 % more visitor-feed answers a second), unless the answer is short
 * (`TEXT_ALWAYS_BELOW`: the start-up call).
 */
function sendShared(req: FastifyRequest, reply: FastifyReply, made: SharedAnswer): Buffer | string {
  reply.header('vary', 'accept-encoding');
  // The threshold compares the length in characters: near enough to the bytes for a threshold.
  const encoding =
    made.text.length >= COMPRESS_FROM_BYTES ? acceptedEncoding(req.headers['accept-encoding']) : null;
  if (!encoding) {
    if (!made.sent || made.text.length < TEXT_ALWAYS_BELOW) {
      made.sent = true;
      return made.text;
    }
    made.bytes ??= Buffer.from(made.text);
    return made.bytes;
  }
  made[encoding] ??= compressOnce(Buffer.from(made.text), encoding);
  reply.header('content-encoding', encoding);
  return made[encoding];
}

/**
 * A shared answer shorter than this (characters) goes as its text every time: one write with the
 * headers, the text encoded on the way (Node encodes a string under 16 KB on the stack), cheaper
 * than the headers and kept bytes by `writev`. On the 2026-11-29 machine the start-up call (2–3 KB)
 * cost 40–42 µs of server CPU as text against 42–44 µs as bytes, 6 % more answers a second; the
 * visitors' feed (18 KB) is faster as bytes (above).
 */
const TEXT_ALWAYS_BELOW = 8_192;

/** Answers smaller than this go as they are (the compress plugin's threshold, app.ts). */
export const COMPRESS_FROM_BYTES = 1024;

/** No text of the API may hold a NUL character: a 400 naming the field, before any schema runs. */
function refuseNullBytes(raw: unknown): void {
  const field = nullBytePath(raw);
  if (field) throw new AppError('VALIDATION_FAILED', {}, { [field]: 'nullByte' });
}

/**
 * Registers the route of a contract endpoint: authenticates as the endpoint says, checks the
 * guard, parses params and input with the contract schemas, calls the handler and shapes the answer
 * with the output schema (unknown keys are stripped, so raw rows never leave the server): parsed
 * with zod, or in production serialized by the schema compiled once (answerFormat, RouteEnv.output).
 */
export function defineRoute<N extends EndpointName>(
  app: FastifyInstance,
  env: RouteEnv,
  name: N,
  handler: (ctx: RouteContext<N>) => Promise<EndpointOutput<N>>,
  options: RouteOptions = {},
): void {
  const def: { method: string; path: string; auth: string; output: z.ZodType } & Partial<{
    input: z.ZodType;
    params: z.ZodType;
    multipart: boolean;
  }> = endpoints[name];
  const format = answerFormat(name, env.output);
  const compiled = format.schema;
  const madeOf = options.shared ? new WeakMap<object, SharedAnswer>() : undefined;
  /** The JSON (UTF-8 bytes, encoded once) and tag of a shared answer, made the first time it is sent. */
  const sharedAnswer = (kept: WeakMap<object, SharedAnswer>, answer: object) => {
    let made = kept.get(answer);
    if (!made) {
      const text = format.json(answer as EndpointOutput<N>);
      made = { text, sent: false, etag: weakEtag(text) };
      kept.set(answer, made);
    }
    return made;
  };
  (def.multipart ? (env.uploads ?? app) : app).route({
    method: def.method as 'GET',
    url: `/api/v1${def.path}`,
    // The reply's serializer is the format's own, compiled once (not compiled again by Fastify).
    ...(compiled ? { schema: { response: { 200: compiled } }, serializerCompiler: () => format.json } : {}),
    // The compress plugin (app.ts) hooks three steps of every request of a route. A shared answer
    // is compressed here, once per answer (sendShared), and a GET has no body to inflate: those
    // hooks would only cost (about 1 µs of the start-up call's CPU, issue 13).
    ...(madeOf ? { compress: false as const } : {}),
    ...(def.method === 'GET' ? { decompress: false as const } : {}),
    handler: async (req, reply) => {
      let auth: AuthInfo | null = null;
      if (def.auth !== 'none') {
        try {
          auth = await env.authenticate(req);
        } catch (err) {
          // A stale token on an endpoint that works anonymously is simply ignored.
          const stale = err instanceof AppError && err.code === 'INVALID_TOKEN';
          if (def.auth === 'required' || !stale) throw err;
        }
      }
      if (def.auth === 'required' && !auth) throw new AppError('UNAUTHENTICATED');
      if (auth?.apiToken) {
        // A personal API token reaches only the endpoints of its scopes (contract TOKEN_SCOPES).
        const scope = tokenScopeOf(name);
        if (!scope) throw new AppError('API_TOKEN_NOT_ALLOWED');
        if (!auth.apiToken.scopes.includes(scope)) throw new AppError('API_TOKEN_SCOPE_MISSING', { scope });
      }
      if (options.guard) {
        const verdict = checkGuard(options.guard, auth);
        if (verdict === 'needsTwoFactor') throw new AppError('TWO_FACTOR_REQUIRED');
        if (verdict === 'forbidden') throw new AppError('FORBIDDEN');
      }
      req.auth = auth;
      refuseNullBytes(req.params);
      const params = def.params ? def.params.parse(req.params) : {};
      let files: UploadedFile[] = [];
      let cleanup = async () => {};
      let raw: unknown = def.method === 'GET' || def.method === 'DELETE' ? req.query : (req.body ?? {});
      if (def.multipart && req.isMultipart()) {
        if (!env.readMultipart) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
        const form = await env.readMultipart(req);
        raw = form.fields;
        files = form.files;
        cleanup = form.cleanup;
      }
      try {
        refuseNullBytes(raw);
        const parsed = def.input ? def.input.parse(raw) : undefined;
        const result = await handler({
          input: parsed as InputOf<N>,
          params: params as ParamsOf<N>,
          auth: auth as AuthOf<N>,
          files,
          lang: requestLanguage(req),
          ip: req.ip,
          req,
          reply,
        });
        if (madeOf && result && typeof result === 'object') {
          const made = sharedAnswer(madeOf, result);
          reply.type('application/json; charset=utf-8').header('etag', made.etag);
          return sendShared(req, reply, made) as unknown as EndpointOutput<N>;
        }
        return compiled ? result : format.shape(result);
      } finally {
        await cleanup();
      }
    },
  });
}
