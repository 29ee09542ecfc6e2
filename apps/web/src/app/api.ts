import {
  type ApiErrorBody,
  clientErrorMessage,
  type EndpointInput,
  type EndpointName,
  type EndpointOutput,
  type Endpoints,
  type ErrorCode,
  LANGUAGE_HEADER,
  TOKEN_HEADER,
} from '@fanverse/contract';
import { type EndpointRoute, endpointTable } from './endpointTable.ts';
import { currentLanguage, readToken } from './session.store.ts';

export const API_BASE = '/api/v1';

/** How a catalogue code looks (`ERRORS` keys: upper case and underscores). */
const ERROR_CODE_FORM = /^[A-Z][A-Z0-9_]*$/;

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

/** Path parameters of an endpoint (its `params` schema), or undefined when it has none. */
export type EndpointParams<N extends EndpointName> = Endpoints[N] extends {
  params: { parse(value: unknown): infer P };
}
  ? P
  : undefined;

/** Per-call options: path parameters (required when the endpoint has some), files, abort signal. */
export type CallOptions<N extends EndpointName> = {
  /** Files of a multipart endpoint, sent under `files`. */
  files?: readonly Blob[];
  /** Files of a multipart endpoint sent each under its own field name (e.g. front, back, face). */
  namedFiles?: Readonly<Record<string, Blob>>;
  signal?: AbortSignal;
} & (EndpointParams<N> extends undefined ? { params?: undefined } : { params: EndpointParams<N> });

type Args<N extends EndpointName> =
  EndpointParams<N> extends undefined
    ? EndpointInput<N> extends undefined
      ? [input?: undefined, options?: CallOptions<N>]
      : [input: EndpointInput<N>, options?: CallOptions<N>]
    : [input: EndpointInput<N>, options: CallOptions<N>];

/** Listeners told when the server says the token is no longer valid. */
const unauthorizedListeners = new Set<() => void>();
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Listeners told when a staff call needs two-step sign-in on first (TWO_FACTOR_REQUIRED). */
const twoFactorRequiredListeners = new Set<() => void>();
export function onTwoFactorRequired(listener: () => void): () => void {
  twoFactorRequiredListeners.add(listener);
  return () => twoFactorRequiredListeners.delete(listener);
}

function buildUrl(def: EndpointRoute, input: unknown, params: unknown): string {
  const values: Record<string, unknown> = params && typeof params === 'object' ? { ...params } : {};
  const path = def.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(values[key] ?? '')));
  let url = `${API_BASE}${path}`;
  if (def.method === 'GET' && input && typeof input === 'object') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(input)) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value) query.append(key, String(item));
      else query.set(key, String(value));
    }
    const qs = query.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}

/** Multipart body: text fields (objects as JSON) and the files under `files`. */
function formData(
  input: unknown,
  files: readonly Blob[] = [],
  namedFiles: Readonly<Record<string, Blob>> = {},
): FormData {
  const form = new FormData();
  if (input && typeof input === 'object') {
    for (const [key, value] of Object.entries(input)) {
      if (value === undefined || value === null) continue;
      form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
  }
  for (const file of files) form.append('files', file);
  for (const [field, file] of Object.entries(namedFiles)) form.append(field, file);
  return form;
}

/**
 * Calls one endpoint of the contract: `api('auth.login', { login, password })`,
 * `api('creator.profile', undefined, { params: { id: 'alice' } })`.
 * Sends the language and the session token, returns the typed answer, throws ApiError.
 */
export async function api<N extends EndpointName>(name: N, ...args: Args<N>): Promise<EndpointOutput<N>> {
  const def = endpointTable[name];
  const input: unknown = args[0];
  const options = args[1] as
    | {
        params?: unknown;
        files?: readonly Blob[];
        namedFiles?: Readonly<Record<string, Blob>>;
        signal?: AbortSignal;
      }
    | undefined;
  const language = currentLanguage();
  const headers: Record<string, string> = { [LANGUAGE_HEADER]: language, accept: 'application/json' };
  const token = readToken();
  if (token) headers[TOKEN_HEADER] = token;
  const init: RequestInit = { method: def.method, headers, signal: options?.signal };
  if (def.multipart) {
    init.body = formData(input, options?.files, options?.namedFiles);
  } else if (def.method !== 'GET' && def.method !== 'DELETE') {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(input ?? {});
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(def, input, options?.params), init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'SERVICE_UNAVAILABLE', clientErrorMessage('SERVICE_UNAVAILABLE', language));
  }

  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    if (isApiErrorBody(body)) {
      const { code, message, fields } = body;
      // Only a dead session logs out; a wrong password (INVALID_CREDENTIALS) is an ordinary answer.
      if (token && (code === 'INVALID_TOKEN' || code === 'UNAUTHENTICATED')) {
        for (const listener of unauthorizedListeners) listener();
      }
      if (code === 'TWO_FACTOR_REQUIRED') for (const listener of twoFactorRequiredListeners) listener();
      throw new ApiError(response.status, code, message, fields);
    }
    const code = response.status >= 500 ? 'INTERNAL' : 'NOT_FOUND';
    throw new ApiError(response.status, code, clientErrorMessage(code, language));
  }

  if (!def.output) return body as EndpointOutput<N>;
  const parsed = def.output.safeParse(body);
  if (!parsed.success) {
    // The answer does not match the contract: report it loudly but keep the app usable.
    console.error(`API ${name}: answer does not match the contract`, parsed.error.issues);
    throw new ApiError(response.status, 'INTERNAL', clientErrorMessage('INTERNAL', language));
  }
  return parsed.data as EndpointOutput<N>;
}

/**
 * The error answer of the contract (apiErrorSchema's shape), checked without zod. The code is
 * checked by its form, not against the catalogue: the first load carries only the client's own
 * messages (CLIENT_ERRORS), and the server answers only catalogue codes with their message.
 */
function isApiErrorBody(body: unknown): body is ApiErrorBody {
  if (!body || typeof body !== 'object') return false;
  const { code, message, fields } = body as Record<string, unknown>;
  return (
    typeof code === 'string' &&
    ERROR_CODE_FORM.test(code) &&
    typeof message === 'string' &&
    (fields === undefined ||
      (!!fields && typeof fields === 'object' && Object.values(fields).every((v) => typeof v === 'string')))
  );
}

/** The message to show for any error thrown by a call (spec §8: read from the message). */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return clientErrorMessage('INTERNAL', currentLanguage());
}
