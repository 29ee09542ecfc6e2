import type { SessionDevice } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useInstantFormat } from '../../app/dates.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { ItemRow } from '../../ui/ItemRow.tsx';

const SESSIONS_KEY = ['auth.sessions'];

/** /user/devices: where the account is signed in; sign one device or all others out (issue 18). */
export default function DevicesPage() {
  const { t } = useTranslation('account');
  const client = useQueryClient();
  const query = useQuery({ queryKey: SESSIONS_KEY, queryFn: () => api('auth.sessions') });
  const refresh = () => client.invalidateQueries({ queryKey: SESSIONS_KEY });
  const revoke = useMutation({
    mutationFn: (id: string) => api('auth.revokeSession', {}, { params: { id } }),
    onSettled: refresh,
  });
  const revokeOthers = useMutation({
    mutationFn: () => api('auth.revokeOtherSessions', {}),
    onSettled: refresh,
  });
  const items = query.data?.items ?? [];
  return (
    <section className="panel devices" aria-labelledby="devices-title" data-testid="devices-page">
      <h1 id="devices-title">{t('devices.title')}</h1>
      <p className="muted">{t('devices.intro')}</p>
      {query.isPending && <Loader skeleton="rows" />}
      {query.isError && <Alert>{errorText(query.error)}</Alert>}
      {(revoke.isError || revokeOthers.isError) && (
        <Alert>{errorText(revoke.error ?? revokeOthers.error)}</Alert>
      )}
      {revokeOthers.isSuccess && (
        <Alert tone="success" testId="devices-revoked">
          {t('devices.revokedOthers', { count: revokeOthers.data.revoked })}
        </Alert>
      )}
      <ul className="devices__list">
        {items.map((item) => (
          <DeviceRow
            key={item.id}
            item={item}
            busy={revoke.isPending && revoke.variables === item.id}
            onRevoke={() => revoke.mutate(item.id)}
          />
        ))}
      </ul>
      {items.length > 1 && (
        <button
          type="button"
          className="button button--danger"
          disabled={revokeOthers.isPending}
          onClick={() => revokeOthers.mutate()}
          data-testid="devices-revoke-others"
        >
          {t('devices.revokeOthers')}
        </button>
      )}
      <p className="form__links">
        <Link to="/?feed=my-profile">{t('devices.back')}</Link>
      </p>
    </section>
  );
}

function DeviceRow({ item, busy, onRevoke }: { item: SessionDevice; busy: boolean; onRevoke: () => void }) {
  const { t } = useTranslation('account');
  const format = useInstantFormat(true);
  const name =
    [item.device.browser, item.device.os].filter(Boolean).join(' · ') || t('devices.unknownDevice');
  return (
    <ItemRow
      testId="device-row"
      highlighted={item.current}
      title={
        <>
          {name}
          {item.current && <span className="devices__this"> {t('devices.thisDevice')}</span>}
        </>
      }
      details={[
        `${t(`devices.type.${item.device.type}`)}${item.address ? ` · ${t('devices.address', { address: item.address })}` : ''}`,
        `${t('devices.lastSeen', { when: format(item.lastSeenAt) })} · ${t('devices.signedIn', { when: format(item.signedInAt) })}`,
      ]}
      action={
        item.current
          ? undefined
          : {
              label: t('devices.revoke'),
              ariaLabel: t('devices.revokeNamed', { name }),
              busy,
              onClick: onRevoke,
              testId: 'device-revoke',
            }
      }
    />
  );
}
