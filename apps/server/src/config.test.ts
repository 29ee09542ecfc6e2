import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has a default for everything', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.appName).toBe('Fanverse');
    expect(c.timezone).toBe('America/Bogota');
    expect(c.paymentProvider).toBe('sandbox');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir.endsWith('data')).toBe(true);
    expect(c.mediaDir).toBe(`${c.dataDir}/media`);
    expect(c.seedDemo).toBe(true);
    expect(c.devOutbox).toBe(true);
  });

  it.each([
    ['PORT', 'eighty'],
    ['DATABASE_URL', 'mysql://x@y/z'],
    ['REDIS_URL', 'http://localhost'],
    ['TIMEZONE', 'Mars/Olympus'],
    ['PAYMENT_PROVIDER', 'paypal'],
    ['SEED_DEMO', 'maybe'],
    ['SMTP_URL', 'not a url'],
    ['MEDIA_CDN_URL', 'ftp://cdn'],
  ])('stops on a bad %s, naming it', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(name);
  });

  it('has no analytics tag unless one is configured, and refuses a script address that is not a URL or path', () => {
    expect(loadConfig({}).analytics).toBeNull();
    expect(
      loadConfig({
        ANALYTICS_SCRIPT_URL: 'https://stats.example.com/js/script.js',
        ANALYTICS_SITE_ID: 'fans.example',
      }).analytics,
    ).toEqual({ scriptUrl: 'https://stats.example.com/js/script.js', siteId: 'fans.example' });
    expect(loadConfig({ ANALYTICS_SCRIPT_URL: '/stats/script.js' }).analytics?.scriptUrl).toBe(
      '/stats/script.js',
    );
    expect(() => loadConfig({ ANALYTICS_SCRIPT_URL: 'javascript:alert(1)' })).toThrow(ConfigError);
  });

  it('does not seed an external database unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://a@b/c' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://a@b/c', SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('sends mail through SMTP when SMTP_URL is set', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example.com:587' }).devOutbox).toBe(false);
  });

  it('refuses to start in production without SMTP_URL, naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SMTP_URL is required/);
  });

  it('never opens the dev outbox in production', () => {
    const smtp = 'smtp://mail.example.com:587';
    expect(loadConfig({ NODE_ENV: 'production', SMTP_URL: smtp }).devOutbox).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', SMTP_URL: smtp, DEV_OUTBOX: 'true' })).toThrow(
      /DEV_OUTBOX/,
    );
    expect(loadConfig({ SMTP_URL: smtp, DEV_OUTBOX: 'true' }).devOutbox).toBe(true);
    expect(loadConfig({ DEV_OUTBOX: 'false' }).devOutbox).toBe(false);
  });
});

describe('sign-in providers (ADR 0036)', () => {
  it('are off by default, on by client id, in button order', () => {
    expect(loadConfig({}).signInProviders).toEqual([]);
    const providers = loadConfig({
      X_CLIENT_ID: 'x-id',
      GOOGLE_CLIENT_ID: 'g-id',
      GOOGLE_CLIENT_SECRET: 'g-secret',
      OIDC_ISSUER_URL: 'https://id.example.com',
      OIDC_CLIENT_ID: 'o-id',
      OIDC_NAME: 'Example ID',
    }).signInProviders;
    expect(providers.map((p) => [p.id, p.name, p.kind])).toEqual([
      ['oidc', 'Example ID', 'oidc'],
      ['google', 'Google', 'oidc'],
      ['x', 'X', 'oauth2'],
    ]);
  });

  it('refuses half a provider and an http issuer in production', () => {
    expect(() => loadConfig({ OIDC_ISSUER_URL: 'https://id.example.com' })).toThrow(/OIDC_CLIENT_ID/);
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'g' })).toThrow(/GOOGLE_CLIENT_SECRET/);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://mail.example.com',
        OIDC_ISSUER_URL: 'http://id.example.com',
        OIDC_CLIENT_ID: 'o',
      }),
    ).toThrow(/must be https/);
  });
});
