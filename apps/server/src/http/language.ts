import { LANGUAGE_HEADER, type Language, pickLanguage } from '@fanverse/contract';
import type { FastifyRequest } from 'fastify';

/** The request's language: the `ilang` header, else Accept-Language, else English. */
export function requestLanguage(req: FastifyRequest): Language {
  const ilang = req.headers[LANGUAGE_HEADER];
  if (typeof ilang === 'string' && ilang) return pickLanguage(ilang);
  return pickLanguage(req.headers['accept-language']);
}
