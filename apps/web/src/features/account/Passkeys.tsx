import type { AuthResponse, Passkey } from '@fanverse/contract';
import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { useInstantFormat } from '../../app/dates.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { ItemRow } from '../../ui/ItemRow.tsx';

const PASSKEYS_KEY = ['auth.passkeys'];

/** A WebAuthn prompt the person closed or that timed out: no error to show, they chose not to. */
const cancelled = (error: unknown) => error instanceof Error && error.name === 'NotAllowedError';

/** The security page's passkeys: add one on this device, list them, remove one (issue 18). */
export function PasskeysSection() {
  const { t } = useTranslation('account');
  const client = useQueryClient();
  const format = useInstantFormat(true);
  const list = useQuery({ queryKey: PASSKEYS_KEY, queryFn: () => api('auth.passkeys') });
  const refresh = () => client.invalidateQueries({ queryKey: PASSKEYS_KEY });
  const add = useMutation({
    mutationFn: async () => {
      const { challengeId, options } = await api('auth.passkeyRegisterOptions', {});
      const response = await startRegistration({
        optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
      });
      return api('auth.passkeyRegister', { challengeId, response: { ...response } });
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api('auth.passkeyRemove', {}, { params: { id } }),
    onSettled: refresh,
  });
  const items = list.data?.items ?? [];
  const error = add.error && !cancelled(add.error) ? add.error : remove.error;
  return (
    <section className="security__passkeys" aria-labelledby="passkeys-title" data-testid="passkeys">
      <h2 id="passkeys-title">{t('passkeys.title')}</h2>
      <p className="muted">{t('passkeys.intro')}</p>
      {error && <Alert>{errorText(error)}</Alert>}
      {add.isSuccess && (
        <Alert tone="success" testId="passkey-added">
          {t('passkeys.added')}
        </Alert>
      )}
      {items.length > 0 && (
        <ul className="devices__list">
          {items.map((item: Passkey) => (
            <ItemRow
              key={item.id}
              testId="passkey-row"
              title={item.name}
              details={[
                `${t('passkeys.created', { when: format(item.createdAt) })}${item.lastUsedAt ? ` · ${t('passkeys.used', { when: format(item.lastUsedAt) })}` : ''}`,
              ]}
              action={{
                label: t('passkeys.remove'),
                ariaLabel: t('passkeys.removeNamed', { name: item.name }),
                busy: remove.isPending,
                onClick: () => remove.mutate(item.id),
                testId: 'passkey-remove',
              }}
            />
          ))}
        </ul>
      )}
      {browserSupportsWebAuthn() ? (
        <button
          type="button"
          className="button"
          disabled={add.isPending}
          onClick={() => add.mutate()}
          data-testid="passkey-add"
        >
          {t('passkeys.add')}
        </button>
      ) : (
        <p className="muted">{t('passkeys.unsupported')}</p>
      )}
    </section>
  );
}

/** The login page's "Sign in with a passkey": no password, the device checks the person. */
export function PasskeySignIn({ onAuth }: { onAuth: (auth: AuthResponse) => void }) {
  const { t } = useTranslation('account');
  const signIn = useMutation({
    mutationFn: async () => {
      const { challengeId, options } = await api('auth.passkeyLoginOptions', {});
      const response = await startAuthentication({
        optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
      });
      return api('auth.passkeyLogin', { challengeId, response: { ...response } });
    },
    onSuccess: onAuth,
  });
  if (!browserSupportsWebAuthn()) return null;
  return (
    <div className="passkey-sign-in">
      {signIn.isError && !cancelled(signIn.error) && (
        <Alert testId="passkey-error">{errorText(signIn.error)}</Alert>
      )}
      <button
        type="button"
        className="button button--block"
        disabled={signIn.isPending}
        onClick={() => signIn.mutate()}
        data-testid="passkey-sign-in"
      >
        {t('passkeys.signIn')}
      </button>
    </div>
  );
}
