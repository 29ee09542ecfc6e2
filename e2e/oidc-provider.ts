/**
 * The OpenID Connect provider of the social sign-in journeys (e2e/tests/social.spec.ts): the
 * npm oidc-provider with its development sign-in pages, started by playwright.config.ts next to
 * the app, which gets OIDC_* pointing at it.
 */
import { startOidcProvider } from '../apps/server/test/oidc-provider.ts';

const port = Number(process.env.OIDC_PORT);
const redirectUri = process.env.OIDC_REDIRECT_URI;
if (!port || !redirectUri) throw new Error('OIDC_PORT and OIDC_REDIRECT_URI are required');
const provider = await startOidcProvider({ port, redirectUris: [redirectUri] });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void provider.stop().then(() => process.exit(0)));
}
