import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api } from './api.ts';
import { useSession } from './session.store.ts';

type Call = { url: string; init: RequestInit };
function stubFetch(status: number, body: unknown): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  useSession.setState({ token: null, language: 'en' });
});

describe('api client', () => {
  it('sends the language and the token, and a JSON body', async () => {
    useSession.setState({ token: 'tok', language: 'es' });
    const calls = stubFetch(200, { success: true });
    await api('auth.code', { email: 'a@b.co' });
    const call = calls[0]!;
    expect(call.url).toBe('/api/v1/auth/code');
    expect(call.init.method).toBe('POST');
    expect(call.init.headers).toMatchObject({
      ilang: 'es',
      a1sledom: 'tok',
      'content-type': 'application/json',
    });
    expect(JSON.parse(String(call.init.body))).toEqual({ email: 'a@b.co' });
  });

  it('puts path parameters in the path and GET input in the query', async () => {
    const calls = stubFetch(500, { code: 'INTERNAL', message: 'boom' });
    await expect(api('creator.profile', undefined, { params: { id: 'ali ce' } })).rejects.toBeInstanceOf(
      ApiError,
    );
    await expect(api('dev.outbox', { to: 'x@y.z' })).rejects.toBeInstanceOf(ApiError);
    expect(calls.map((c) => c.url)).toEqual([
      '/api/v1/creator/profile/ali%20ce',
      '/api/v1/dev/outbox?to=x%40y.z',
    ]);
  });

  it('throws ApiError with the server message and field messages', async () => {
    stubFetch(400, { code: 'VALIDATION_FAILED', message: 'Revísalos', fields: { username: 'Ya en uso' } });
    const error = await api('auth.login', { login: 'a', password: 'b' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Revísalos',
      fields: { username: 'Ya en uso' },
    });
  });

  it('answers INTERNAL in the user language when the error body is not an error answer', async () => {
    useSession.setState({ language: 'es' });
    for (const body of [null, { code: 'not a code', message: 'x' }, { code: 'INTERNAL' }]) {
      stubFetch(502, body);
      const error = await api('home.get', { view: 'home' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 502, code: 'INTERNAL' });
      expect((error as ApiError).message).toMatch(/^Lo sentimos - Error del servidor/);
    }
  });

  it('turns a network failure into SERVICE_UNAVAILABLE in the user language', async () => {
    useSession.setState({ language: 'es' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('down'))),
    );
    const error = await api('home.get', { view: 'home' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: 'SERVICE_UNAVAILABLE' });
    expect((error as ApiError).message).toMatch(/servicio/);
  });
});

describe('api client multipart', () => {
  it('sends named files under their own field names (identity photos front, back, face)', async () => {
    const calls = stubFetch(400, { code: 'MISSING_DATA', message: 'Missing Data' });
    const front = new File(['a'], 'front.jpg', { type: 'image/jpeg' });
    const back = new File(['b'], 'back.jpg', { type: 'image/jpeg' });
    await api(
      'creator.apply',
      { step: '3', documentType: 'passport' },
      { namedFiles: { front, back } },
    ).catch(() => undefined);
    const body = calls[0]?.init.body;
    expect(body).toBeInstanceOf(FormData);
    const form = body as FormData;
    expect(form.get('step')).toBe('3');
    expect(form.get('documentType')).toBe('passport');
    expect((form.get('front') as File).name).toBe('front.jpg');
    expect((form.get('back') as File).name).toBe('back.jpg');
    expect(form.getAll('files')).toEqual([]);
  });
});
