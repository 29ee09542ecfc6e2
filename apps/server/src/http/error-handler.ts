import {
  type ApiErrorBody,
  ERRORS,
  type ErrorCode,
  errorMessage,
  FIELD_MESSAGES,
  isFieldMessageKey,
  type Language,
} from '@fanverse/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { StorageUnavailableError } from '../media/storage.ts';
import { AppError } from './app-error.ts';
import { requestLanguage } from './language.ts';

/** Turns zod issues into `{ field: message }` in the request's language. */
export function fieldsFromZod(error: ZodError, lang: Language): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const name = issue.path.length ? issue.path.join('.') : '_';
    if (fields[name]) continue;
    let key = issue.message;
    if (!isFieldMessageKey(key) && !Object.hasOwn(ERRORS, key)) {
      const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
      key = missing ? 'required' : 'invalid';
    }
    fields[name] = isFieldMessageKey(key) ? FIELD_MESSAGES[key][lang] : key;
  }
  return fields;
}

function body(code: ErrorCode, lang: Language, params?: Record<string, string | number>): ApiErrorBody {
  return { code, message: errorMessage(code, lang, params) };
}

/** Maps framework errors (bad JSON, oversize body …) to catalogue codes. */
function codeForFastifyError(err: FastifyError): ErrorCode | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'INVALID_JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
      return 'PAYLOAD_TOO_LARGE';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_FAILED';
    default:
      break;
  }
  if (err instanceof SyntaxError && err.statusCode === 400) return 'INVALID_JSON';
  if (err.statusCode === 413) return 'PAYLOAD_TOO_LARGE';
  if (err.statusCode === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (err.statusCode === 404) return 'NOT_FOUND';
  if (err.statusCode === 429) return 'RATE_LIMITED';
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return 'VALIDATION_FAILED';
  return undefined;
}

/** Seconds a client is asked to wait while the database is away (a restart takes a few). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Seconds a client is asked to wait while the media storage (S3) is away. */
export const STORAGE_RETRY_AFTER_SECONDS = 10;

/**
 * Errors the router raises before any route or hook runs (a path parameter over the router's
 * length limit, a path that is not valid percent-encoding): without this, Fastify answers them
 * with its own body, outside the catalogue. Such a path names nothing that exists: NOT_FOUND.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const code: ErrorCode =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH' || err.code === 'FST_ERR_BAD_URL'
      ? 'NOT_FOUND'
      : 'VALIDATION_FAILED';
  reply.status(ERRORS[code].status).send(body(code, requestLanguage(req)));
}

/**
 * The one serializer of errors: never a stack trace or SQL to the client. `notFound` answers what no
 * route matches (the app serves its web pages there, app.ts); by default the JSON 404.
 */
export function registerErrorHandler(
  app: FastifyInstance,
  options: { notFound?: (req: FastifyRequest, reply: FastifyReply) => unknown } = {},
): void {
  app.setErrorHandler((err: FastifyError | AppError | ZodError, req: FastifyRequest, reply: FastifyReply) => {
    const lang = requestLanguage(req);
    if (err instanceof AppError) {
      const payload = body(err.code, lang, err.params);
      if (err.fields) {
        payload.fields = Object.fromEntries(
          Object.entries(err.fields).map(([k, v]) => [k, isFieldMessageKey(v) ? FIELD_MESSAGES[v][lang] : v]),
        );
      }
      return reply.status(ERRORS[err.code].status).headers(err.headers).send(payload);
    }
    if (err instanceof ZodError) {
      // A schema may name a catalogue code for a missing essential (spec §8 'Missing post ID').
      const named = err.issues.map((i) => i.message).find((m): m is ErrorCode => Object.hasOwn(ERRORS, m));
      const code = named ?? 'VALIDATION_FAILED';
      const fields = fieldsFromZod(err, lang);
      for (const [k, v] of Object.entries(fields)) {
        if (Object.hasOwn(ERRORS, v)) fields[k] = errorMessage(v as ErrorCode, lang);
      }
      return reply.status(ERRORS[code].status).send({ ...body(code, lang), fields });
    }
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err: { message: err.message } }, 'database unavailable');
      return reply
        .status(ERRORS.DATABASE_UNAVAILABLE.status)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send(body('DATABASE_UNAVAILABLE', lang));
    }
    if (err instanceof StorageUnavailableError) {
      req.log.warn({ err: { message: err.message } }, 'storage unavailable');
      return reply
        .status(ERRORS.STORAGE_UNAVAILABLE.status)
        .header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS))
        .send(body('STORAGE_UNAVAILABLE', lang));
    }
    const code = codeForFastifyError(err);
    if (code) {
      if (code === 'VALIDATION_FAILED') req.log.info({ code: err.code }, 'client error');
      return reply.status(ERRORS[code].status).send(body(code, lang, { seconds: 60 }));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(body('INTERNAL', lang));
  });

  app.setNotFoundHandler(options.notFound ?? sendNotFound);
}

/** The JSON 404: no route answers this method and path. */
export function sendNotFound(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.status(404).send(body('NOT_FOUND', requestLanguage(req)));
}
