import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { deviceOf } from './device.ts';
import type { PasskeyRepository, PasskeyRow } from './passkey.repository.ts';

const CHALLENGE_TTL_MS = 5 * 60_000;

export interface PasskeyDeps {
  repo: PasskeyRepository;
  users: UserRepository;
  config: Pick<Config, 'appName' | 'publicUrl' | 'port'>;
  now?: () => Date;
}

/**
 * Who the passkeys are for: the site's host name (RP ID) and the origins a browser may answer
 * from. PUBLIC_URL in production; without it, http://localhost on the server's port (browsers
 * refuse an IP address as RP ID, so a local run is opened at localhost, not 127.0.0.1).
 */
export function relyingParty(config: Pick<Config, 'publicUrl' | 'port'>): { id: string; origins: string[] } {
  if (config.publicUrl) {
    const url = new URL(config.publicUrl);
    return { id: url.hostname, origins: [url.origin] };
  }
  return { id: 'localhost', origins: [`http://localhost:${config.port}`] };
}

type Transports = NonNullable<WebAuthnCredential['transports']>;
const transportsOf = (row: PasskeyRow) => row.transports as Transports;

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): a signed-in account registers them, lists and
 * removes them; anyone signs in with one (no password, no second step: the authenticator checked
 * the person). Every challenge is stored, used once (conditional UPDATE) and lives 5 minutes.
 */
export class PasskeyService {
  private readonly now: () => Date;
  private readonly rp: { id: string; origins: string[] };
  constructor(private readonly deps: PasskeyDeps) {
    this.now = deps.now ?? (() => new Date());
    this.rp = relyingParty(deps.config);
  }

  async list(auth: AuthInfo) {
    const rows = await this.deps.repo.list(auth.userId);
    return {
      items: rows.map((r) => ({
        id: r.id,
        name: r.name,
        createdAt: r.createdAt.toISOString(),
        lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
      })),
    };
  }

  async registrationOptions(auth: AuthInfo) {
    const user = await this.deps.users.findById(auth.userId);
    if (!user) throw new AppError('INVALID_TOKEN');
    const existing = await this.deps.repo.list(auth.userId);
    const options = await generateRegistrationOptions({
      rpName: this.deps.config.appName,
      rpID: this.rp.id,
      userName: user.username,
      userID: isoUint8Array.fromUTF8String(user.id),
      userDisplayName: user.name ?? user.username,
      attestationType: 'none',
      excludeCredentials: existing.map((r) => ({ id: r.credentialId, transports: transportsOf(r) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const challengeId = await this.deps.repo.createChallenge({
      userId: auth.userId,
      challenge: options.challenge,
      kind: 'register',
      expiresAt: new Date(this.now().getTime() + CHALLENGE_TTL_MS),
    });
    return { challengeId, options: { ...options } };
  }

  async register(auth: AuthInfo, input: { challengeId: string; response: unknown }, userAgent?: string) {
    const challenge = await this.deps.repo.useChallenge(
      input.challengeId,
      'register',
      auth.userId,
      this.now(),
    );
    if (!challenge) throw new AppError('PASSKEY_EXPIRED');
    const verified = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: this.rp.origins,
      expectedRPID: this.rp.id,
      requireUserVerification: true,
    }).catch(() => null);
    if (!verified?.verified) throw new AppError('PASSKEY_INVALID');
    const { credential } = verified.registrationInfo;
    const device = deviceOf(userAgent);
    const row = await this.deps.repo.add({
      userId: auth.userId,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: [device.browser, device.os].filter(Boolean).join(' · ') || 'Passkey',
    });
    return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), lastUsedAt: null };
  }

  async remove(auth: AuthInfo, id: string): Promise<void> {
    if (!(await this.deps.repo.remove(auth.userId, id))) throw new AppError('NOT_FOUND');
  }

  /** A sign-in: the browser offers the passkeys it holds for this site (discoverable credentials). */
  async loginOptions() {
    const options = await generateAuthenticationOptions({ rpID: this.rp.id, userVerification: 'required' });
    const challengeId = await this.deps.repo.createChallenge({
      userId: null,
      challenge: options.challenge,
      kind: 'login',
      expiresAt: new Date(this.now().getTime() + CHALLENGE_TTL_MS),
    });
    return { challengeId, options: { ...options } };
  }

  /** Checks a sign-in answer; answers the account it proves. */
  async verifyLogin(input: { challengeId: string; response: unknown }): Promise<string> {
    const now = this.now();
    const challenge = await this.deps.repo.useChallenge(input.challengeId, 'login', null, now);
    if (!challenge) throw new AppError('PASSKEY_EXPIRED');
    const response = input.response as AuthenticationResponseJSON;
    const row =
      typeof response?.id === 'string' ? await this.deps.repo.findByCredential(response.id) : undefined;
    if (!row) throw new AppError('PASSKEY_INVALID');
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: this.rp.origins,
      expectedRPID: this.rp.id,
      credential: {
        id: row.credentialId,
        publicKey: isoBase64URL.toBuffer(row.publicKey),
        counter: row.counter,
        transports: transportsOf(row),
      },
      requireUserVerification: true,
    }).catch(() => null);
    if (!verified?.verified) throw new AppError('PASSKEY_INVALID');
    if (!(await this.deps.repo.used(row.id, verified.authenticationInfo.newCounter, now))) {
      throw new AppError('PASSKEY_INVALID');
    }
    return row.userId;
  }
}
