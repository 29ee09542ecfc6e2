import { TOKEN_HEADER } from '@fanverse/contract';
import type { FastifyRequest } from 'fastify';
import type { AuthService } from '../modules/auth/auth.service.ts';
import { type ApiTokenService, isApiToken } from '../modules/developer/api-token.service.ts';
import { AppError } from './app-error.ts';
import type { Authenticator } from './route.ts';

/** The token from the `a1sledom` header or `Authorization: Bearer`. */
export function extractToken(req: FastifyRequest): string | undefined {
  const custom = req.headers[TOKEN_HEADER];
  if (typeof custom === 'string' && custom.trim()) return custom.trim();
  const authz = req.headers.authorization;
  if (authz) {
    const match = /^Bearer\s+(\S+)$/i.exec(authz.trim());
    if (match) return match[1];
  }
  return undefined;
}

/**
 * No token: anonymous. A session token that is unknown, expired or revoked: INVALID_TOKEN. A
 * personal API token (`fv_…`) is accepted only where `apiTokens` is given (the contract routes,
 * which check its scopes); elsewhere (file streams) it is refused with API_TOKEN_NOT_ALLOWED.
 */
export function createAuthenticator(auth: AuthService, apiTokens?: ApiTokenService): Authenticator {
  return async (req) => {
    const token = extractToken(req);
    if (!token) return null;
    if (isApiToken(token)) {
      if (!apiTokens) throw new AppError('API_TOKEN_NOT_ALLOWED');
      return apiTokens.authenticate(token);
    }
    const info = await auth.authenticate(token);
    if (!info) throw new AppError('INVALID_TOKEN');
    return info;
  };
}
