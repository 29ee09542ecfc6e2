import { LIMITS, type OidcSignupOffer, type SignInProviderId } from '@fanverse/contract';
import * as client from 'openid-client';
import type { Config, SignInProviderConfig } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import { newToken, sha256 } from '../../lib/crypto.ts';
import type { UserRepository } from '../users/user.repository.ts';
import type { AuthService, CallerContext } from './auth.service.ts';
import type { IdentityRepository } from './identity.repository.ts';

const FLOW_TTL_MS = 10 * 60_000;
const TICKET_TTL_MS = 30 * 60_000;
/** The web page the provider sends the person back to (popup or full page). */
export const OIDC_CALLBACK_PATH = '/auth/oidc/callback';

export interface OidcDeps {
  repo: IdentityRepository;
  users: UserRepository;
  auth: AuthService;
  config: Pick<Config, 'signInProviders' | 'publicUrl' | 'port'>;
  now?: () => Date;
}

/** Spec §3's social login result, as kept for the sign-up form. */
interface Claims {
  id: string;
  name: string | null;
  given_name: string | null;
  family_name: string | null;
  email: string | null;
  email_verified: boolean;
  picture: string | null;
  /** A username the provider knows the person by (X), for the suggestion. */
  handle: string | null;
}

type CallbackResult =
  | { session: { token: string; userId: string; sessionId: string } }
  | { twoFactor: { challenge: string; methods: ('totp' | 'recovery')[] } }
  | { signup: OidcSignupOffer }
  | { linked: { provider: SignInProviderId } };

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * Social sign-in (ADR 0036) with openid-client: authorization code flow with PKCE, state and nonce,
 * all kept in the database (`oidc_flows`) so any server copy finishes what another started, each
 * used once. A first sign-in answers a sign-up offer; an email already registered is never taken
 * over; with two-step sign-in on, the provider counts as the password and the second step follows.
 */
export class OidcService {
  private readonly now: () => Date;
  private readonly configs = new Map<string, Promise<client.Configuration>>();
  constructor(private readonly deps: OidcDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  providers() {
    return { items: this.deps.config.signInProviders.map((p) => ({ id: p.id, name: p.name })) };
  }

  private provider(id: string): SignInProviderConfig {
    const p = this.deps.config.signInProviders.find((x) => x.id === id);
    if (!p) throw new AppError('NOT_FOUND');
    return p;
  }

  private redirectUri(): string {
    const base = this.deps.config.publicUrl ?? `http://localhost:${this.deps.config.port}`;
    return new URL(OIDC_CALLBACK_PATH, base).toString();
  }

  /** The client configuration: discovery for OpenID Connect (once per process, retried after a failure). */
  private clientConfig(p: SignInProviderConfig): Promise<client.Configuration> {
    let config = this.configs.get(p.id);
    if (!config) {
      const auth = p.clientSecret ? client.ClientSecretBasic(p.clientSecret) : client.None();
      const insecure = (url: string) => (url.startsWith('http:') ? [client.allowInsecureRequests] : []);
      config =
        p.kind === 'oidc'
          ? client.discovery(new URL(p.issuer), p.clientId, undefined, auth, { execute: insecure(p.issuer) })
          : Promise.resolve(
              new client.Configuration(
                {
                  issuer: new URL(p.authorizationEndpoint).origin,
                  authorization_endpoint: p.authorizationEndpoint,
                  token_endpoint: p.tokenEndpoint,
                },
                p.clientId,
                undefined,
                auth,
              ),
            );
      config.catch(() => this.configs.delete(p.id));
      this.configs.set(p.id, config);
    }
    return config.catch(() => {
      throw new AppError('OIDC_FAILED', { provider: p.name });
    });
  }

  async start(input: { provider: SignInProviderId; intent: 'login' | 'link' }, auth: AuthInfo | null) {
    const p = this.provider(input.provider);
    if (input.intent === 'link' && !auth) throw new AppError('UNAUTHENTICATED');
    const config = await this.clientConfig(p);
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const browserKey = newToken();
    await this.deps.repo.createFlow({
      stateHash: sha256(state),
      browserHash: sha256(browserKey),
      provider: p.id,
      intent: input.intent,
      userId: input.intent === 'link' ? auth!.userId : null,
      nonce,
      codeVerifier,
      expiresAt: new Date(this.now().getTime() + FLOW_TTL_MS),
    });
    const params: Record<string, string> = {
      redirect_uri: this.redirectUri(),
      scope: p.scope,
      state,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    };
    if (p.kind === 'oidc') params.nonce = nonce;
    return { url: client.buildAuthorizationUrl(config, params).toString(), browserKey };
  }

  /** The provider came back (the callback page's query string): spends the flow, then acts on its intent. */
  async callback(
    input: { query: string; browserKey: string },
    auth: AuthInfo | null,
    ctx: CallerContext,
  ): Promise<CallbackResult> {
    const query = new URLSearchParams(input.query.replace(/^\?/, ''));
    const state = query.get('state');
    const flow = state
      ? await this.deps.repo.useFlow(sha256(state), sha256(input.browserKey), this.now())
      : undefined;
    if (!flow || !state) throw new AppError('OIDC_STATE_INVALID');
    const p = this.provider(flow.provider);
    // A link finishes only in the session that started it (no one links their provider account to
    // an account of someone else's by sending them a link).
    if (flow.intent === 'link' && (!auth || auth.userId !== flow.userId)) {
      throw new AppError('OIDC_STATE_INVALID');
    }
    // Said no, or the provider refused: the same answer (the provider's reason is not shown).
    if (query.get('error')) throw new AppError('OIDC_FAILED', { provider: p.name });
    const claims = await this.exchange(p, flow, state, query);

    if (flow.intent === 'link') {
      const owner = await this.deps.repo.link(flow.userId!, p.id, claims.id, claims.email);
      if (owner !== flow.userId) throw new AppError('OIDC_ALREADY_LINKED', { provider: p.name });
      return { linked: { provider: p.id } };
    }

    const identity = await this.deps.repo.find(p.id, claims.id);
    if (identity) {
      await this.deps.repo.used(identity.id, this.now());
      const result = await this.deps.auth.providerSignIn(identity.userId, ctx);
      if ('challenge' in result) {
        return {
          twoFactor: { challenge: result.challenge, methods: ['totp', 'recovery'] },
        };
      }
      return { session: result };
    }
    // Never taken over: the owner signs in with the password and links from the security page.
    if (claims.email && (await this.deps.users.emailTaken(claims.email))) {
      throw new AppError('OIDC_EMAIL_TAKEN', { provider: p.name });
    }
    const ticket = newToken();
    await this.deps.repo.keepForSignup(
      flow.id,
      sha256(ticket),
      claims,
      new Date(this.now().getTime() + TICKET_TTL_MS),
    );
    return { signup: await this.offer(ticket, p, claims) };
  }

  /** The first sign-in's account: the form's username, date of birth and terms, with the kept claims. */
  async signup(
    input: { ticket: string; username: string; birthdate: string; email?: string },
    ctx: CallerContext,
  ) {
    const now = this.now();
    const flow = await this.deps.repo.findTicket(sha256(input.ticket), now);
    if (!flow) throw new AppError('OIDC_STATE_INVALID');
    const p = this.provider(flow.provider);
    const claims = flow.claims as Claims;
    const email = claims.email ?? input.email;
    if (!email) throw new AppError('VALIDATION_FAILED', {}, { email: 'required' });
    await this.deps.auth.mayCreateAccount(ctx);
    await this.deps.auth.checkFree(input.username, email);
    if (!(await this.deps.repo.useTicket(flow.id, now))) throw new AppError('OIDC_STATE_INVALID');
    try {
      return await this.deps.auth.providerSignup(
        {
          username: input.username,
          email,
          name: (nameOf(claims) ?? input.username).slice(0, LIMITS.nameMax),
          birthdate: input.birthdate,
          // Only an email the provider itself vouches for; one typed here is confirmed by mail.
          verified: !!claims.email && claims.email_verified,
        },
        async (userId) => {
          const owner = await this.deps.repo.link(userId, p.id, claims.id, claims.email);
          if (owner !== userId) throw new AppError('OIDC_ALREADY_LINKED', { provider: p.name });
        },
        ctx,
      );
    } catch (err) {
      if (err instanceof AppError && (err.code === 'USERNAME_TAKEN' || err.code === 'EMAIL_TAKEN')) {
        await this.deps.repo.releaseTicket(flow.id);
      }
      throw err;
    }
  }

  async identities(auth: AuthInfo) {
    const rows = await this.deps.repo.list(auth.userId);
    const items = [];
    for (const row of rows) {
      const p = this.deps.config.signInProviders.find((x) => x.id === row.provider);
      items.push({
        provider: row.provider as SignInProviderId,
        providerName: p?.name ?? row.provider,
        email: row.email,
        linkedAt: row.createdAt.toISOString(),
        removable: await this.deps.repo.otherWaysIn(auth.userId, row.provider),
      });
    }
    return { items };
  }

  async unlink(auth: AuthInfo, provider: string): Promise<void> {
    const result = await this.deps.repo.unlinkKeepingAWayIn(auth.userId, provider);
    if (result === 'missing') throw new AppError('NOT_FOUND');
    if (result === 'last') throw new AppError('OIDC_LAST_SIGN_IN');
  }

  /** Trades the code (PKCE verifier, state and, for OpenID Connect, the ID token's nonce checked) for the claims. */
  private async exchange(
    p: SignInProviderConfig,
    flow: { codeVerifier: string; nonce: string },
    state: string,
    query: URLSearchParams,
  ): Promise<Claims> {
    const config = await this.clientConfig(p);
    const current = new URL(this.redirectUri());
    for (const [k, v] of query) current.searchParams.append(k, v);
    try {
      if (p.kind === 'oidc') {
        const tokens = await client.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        const idClaims = tokens.claims()!;
        const info = config.serverMetadata().userinfo_endpoint
          ? await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)
          : {};
        const all: Record<string, unknown> = { ...info, ...idClaims };
        return {
          id: idClaims.sub,
          name: str(all.name),
          given_name: str(all.given_name),
          family_name: str(all.family_name),
          email: str(all.email)?.toLowerCase() ?? null,
          email_verified: all.email_verified === true,
          picture: str(all.picture),
          handle: str(all.preferred_username),
        };
      }
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: state,
      });
      const res = await client.fetchProtectedResource(
        config,
        tokens.access_token,
        new URL((p as { profileEndpoint: string }).profileEndpoint),
        'GET',
      );
      const body = (await res.json()) as { data?: Record<string, unknown> };
      const data = body.data ?? {};
      const id = str(data.id);
      if (!res.ok || !id) throw new Error('no profile');
      const name = str(data.name);
      return {
        id,
        name,
        given_name: null,
        family_name: null,
        // X answers no email here: the sign-up form asks for one, confirmed by mail.
        email: null,
        email_verified: false,
        picture: str(data.profile_image_url),
        handle: str(data.username),
      };
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('OIDC_FAILED', { provider: p.name });
    }
  }

  private async offer(ticket: string, p: SignInProviderConfig, claims: Claims): Promise<OidcSignupOffer> {
    return {
      ticket,
      provider: p.id,
      providerName: p.name,
      profile: {
        id: claims.id,
        name: claims.name,
        given_name: claims.given_name,
        family_name: claims.family_name,
        email: claims.email,
        picture: claims.picture,
      },
      emailVerified: !!claims.email && claims.email_verified,
      username: await this.suggestUsername(claims),
    };
  }

  /** A free username from the handle, the email's name or the name (letters and digits only). */
  private async suggestUsername(claims: Claims): Promise<string> {
    const seed =
      [claims.handle, claims.email?.split('@')[0], claims.given_name, claims.name]
        .map((v) =>
          (v ?? '')
            .normalize('NFKD')
            .replace(/[^A-Za-z0-9]/g, '')
            .toLowerCase(),
        )
        .find((v) => v.length >= 3) ?? 'fan';
    const base = seed.slice(0, LIMITS.usernameMax - 4);
    if (base.length >= LIMITS.usernameMin && !(await this.deps.users.usernameTaken(base))) return base;
    for (let i = 0; i < 5; i++) {
      const candidate = `${base}${Math.floor(1000 + Math.random() * 9000)}`;
      if (!(await this.deps.users.usernameTaken(candidate))) return candidate;
    }
    return '';
  }
}

function nameOf(c: Claims): string | null {
  return c.name ?? ([c.given_name, c.family_name].filter(Boolean).join(' ') || null);
}
