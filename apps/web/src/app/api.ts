import {
  apiErrorSchema,
  type EndpointDef,
  type EndpointInput,
  type EndpointName,
  type EndpointOutput,
  type ErrorCode,
  endpoints,
  errorMessage,
  LANGUAGE_HEADER,
  TOKEN_HEADER,
} from '@fanverse/contract';
import { currentLanguage, readToken } from './session.store.ts';

export const API_BASE = '/api/v1';

/** An error answered by the API (or a network failure, status 0), with the localized message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly fields: Record<string, string>;

  constructor(status: number, code: ErrorCode, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

type Args<N extends EndpointName> = EndpointInput<N> extends undefined ? [] : [input: EndpointInput<N>];

/** Listeners told when the server says the token is no longer valid. */
const unauthorizedListeners = new Set<() => void>();
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

function buildUrl(def: EndpointDef, input: unknown): string {
  let path = def.path;
  const rest: Record<string, unknown> = input && typeof input === 'object' ? { ...input } : {};
  path = path.replace(/:(\w+)/g, (_, key: string) => {
    const value = rest[key];
    delete rest[key];
    return encodeURIComponent(String(value ?? ''));
  });
  let url = `${API_BASE}${path}`;
  if (def.method === 'GET') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) {
      if (value !== undefined && value !== null) query.set(key, String(value));
    }
    const qs = query.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}

/**
 * Calls one endpoint of the contract: `api('auth.login', { login, password })`.
 * Sends the language and the session token, returns the typed answer, throws ApiError.
 */
export async function api<N extends EndpointName>(name: N, ...args: Args<N>): Promise<EndpointOutput<N>> {
  const def: EndpointDef = endpoints[name];
  const input: unknown = args[0];
  const language = currentLanguage();
  const headers: Record<string, string> = { [LANGUAGE_HEADER]: language, accept: 'application/json' };
  const token = readToken();
  if (token) headers[TOKEN_HEADER] = token;
  const init: RequestInit = { method: def.method, headers };
  if (def.method !== 'GET') {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(input ?? {});
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(def, input), init);
  } catch {
    throw new ApiError(0, 'SERVICE_UNAVAILABLE', errorMessage('SERVICE_UNAVAILABLE', language));
  }

  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = apiErrorSchema.safeParse(body);
    if (parsed.success) {
      const { code, message, fields } = parsed.data;
      if (response.status === 401 && token) for (const listener of unauthorizedListeners) listener();
      throw new ApiError(response.status, code, message, fields);
    }
    const code: ErrorCode = response.status >= 500 ? 'INTERNAL' : 'NOT_FOUND';
    throw new ApiError(response.status, code, errorMessage(code, language));
  }

  const parsed = def.output.safeParse(body);
  if (!parsed.success) {
    // The answer does not match the contract: report it loudly but keep the app usable.
    console.error(`API ${name}: answer does not match the contract`, parsed.error.issues);
    throw new ApiError(response.status, 'INTERNAL', errorMessage('INTERNAL', language));
  }
  return parsed.data as EndpointOutput<N>;
}

/** The message to show for any error thrown by a call (spec §8: read from the message). */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return errorMessage('INTERNAL', currentLanguage());
}
