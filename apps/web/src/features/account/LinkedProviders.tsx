import type { SignInProviderId } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useInstantFormat } from '../../app/dates.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { ItemRow } from '../../ui/ItemRow.tsx';
import { useProviderFlow, useSignInProviders } from '../auth/SocialSignIn.tsx';
import { isAbort } from '../auth/social.ts';

const IDENTITIES_KEY = ['auth.identities'];

/** The security page's sign-in providers: link one (popup), list, unlink (never the last way in). */
export function LinkedProviders() {
  const { t } = useTranslation('account');
  const client = useQueryClient();
  const format = useInstantFormat(true);
  const location = useLocation();
  const providers = useSignInProviders();
  const list = useQuery({ queryKey: IDENTITIES_KEY, queryFn: () => api('auth.identities') });
  const refresh = () => client.invalidateQueries({ queryKey: IDENTITIES_KEY });
  const flow = useProviderFlow('link');
  const link = useMutation({
    mutationFn: flow.start,
    onSettled: refresh,
  });
  const unlink = useMutation({
    mutationFn: (provider: SignInProviderId) => api('auth.identityUnlink', {}, { params: { provider } }),
    onSettled: refresh,
  });
  const available = providers.data?.items ?? [];
  const items = list.data?.items ?? [];
  if (!available.length && !items.length) return null;
  const linkedNow =
    (link.data && 'linked' in link.data) || !!(location.state as { linked?: string } | null)?.linked;
  const error = link.error && !isAbort(link.error) ? link.error : unlink.error;
  const linkedIds = new Set(items.map((i) => i.provider));
  return (
    <section className="security__passkeys" aria-labelledby="providers-title" data-testid="linked-providers">
      <h2 id="providers-title">{t('providers.title')}</h2>
      <p className="muted">{t('providers.intro')}</p>
      {error && <Alert testId="providers-error">{errorText(error)}</Alert>}
      {linkedNow && !link.isPending && !error && (
        <Alert tone="success" testId="provider-linked">
          {t('providers.linked')}
        </Alert>
      )}
      {items.length > 0 && (
        <ul className="devices__list">
          {items.map((item) => (
            <ItemRow
              key={item.provider}
              testId="provider-row"
              title={item.providerName}
              details={[
                [item.email, t('providers.since', { when: format(item.linkedAt) })]
                  .filter(Boolean)
                  .join(' · '),
                ...(item.removable ? [] : [t('providers.onlyWay')]),
              ]}
              action={
                item.removable
                  ? {
                      label: t('providers.unlink'),
                      ariaLabel: t('providers.unlinkNamed', { name: item.providerName }),
                      busy: unlink.isPending,
                      onClick: () => unlink.mutate(item.provider),
                      testId: 'provider-unlink',
                    }
                  : undefined
              }
            />
          ))}
        </ul>
      )}
      {available
        .filter((p) => !linkedIds.has(p.id))
        .map((p) => (
          <button
            key={p.id}
            type="button"
            className="button"
            disabled={link.isPending}
            onClick={() => link.mutate(p.id)}
            data-testid={`provider-link-${p.id}`}
          >
            {t('providers.link', { provider: p.name })}
          </button>
        ))}
    </section>
  );
}
