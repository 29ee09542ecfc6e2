import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider (the npm `oidc-provider`, its development sign-in pages) for the
 * social sign-in tests, server and e2e. Any login is accepted; the login names the person:
 * `ana@example.test` (or `ana`, then `ana@oidc.test`) is the email, vouched for unless the login
 * starts with `nv-`; the subject is the login itself.
 */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

export function claimsOf(login: string) {
  const email = login.includes('@') ? login : `${login}@oidc.test`;
  const local = email.split('@')[0]!.replace(/^nv-/, '');
  const given = local.charAt(0).toUpperCase() + local.slice(1);
  return {
    sub: login,
    email,
    email_verified: !login.startsWith('nv-'),
    name: `${given} Provider`,
    given_name: given,
    family_name: 'Provider',
    picture: `https://avatars.example.test/${encodeURIComponent(local)}.png`,
    preferred_username: local,
  };
}

export async function startOidcProvider(options: {
  redirectUris: string[];
  port?: number;
  host?: string;
}): Promise<TestOidcProvider> {
  const host = options.host ?? '127.0.0.1';
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${host}:${port}`;
  const clientId = 'fanverse-test';
  const clientSecret = 'fanverse-test-secret-0123456789';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'picture', 'preferred_username'],
    },
    pkce: { required: () => true },
    cookies: { keys: ['fanverse-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => claimsOf(id) }),
  });
  handler = provider.callback();
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Plays the person at the provider without a browser: follows its redirects with a cookie jar,
 * signs in as `login` and consents; answers the URL the provider sends back to `redirectUri`
 * (not followed).
 */
export async function signInAtProvider(url: string, login: string, redirectUri: string): Promise<string> {
  const jar = new Map<string, string>();
  let next = url;
  let init: { method: string; body?: URLSearchParams } = { method: 'GET' };
  for (let i = 0; i < 12; i++) {
    const res = await fetch(next, {
      ...init,
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    if (res.status >= 300 && res.status < 400) {
      const location = new URL(res.headers.get('location')!, next).toString();
      if (location.startsWith(redirectUri)) return location;
      next = location;
      init = { method: 'GET' };
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`unexpected provider page ${res.status}: ${html.slice(0, 300)}`);
    next = new URL(action.replace(/&amp;/g, '&'), next).toString();
    init = {
      method: 'POST',
      body: new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt }),
    };
  }
  throw new Error('the provider never sent the person back');
}
