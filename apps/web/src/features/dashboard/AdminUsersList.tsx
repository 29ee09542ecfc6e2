import type { AdminUser } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { RoleChips } from '../admin/AdminParts.tsx';

type StaffRole = 'admin' | 'coord';
const STAFF_ROLES: StaffRole[] = ['admin', 'coord'];
const KEY = ['admin-users', 'admins', 'dashboard'];

/** The administrators and coordinators; the super grants and takes away their roles here. */
export function AdminUsersList() {
  const { t } = useTranslation('dashboard');
  const me = useSession((s) => s.user?.user);
  const client = useQueryClient();
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const query = useQuery({
    queryKey: KEY,
    queryFn: () => api('admin.users', { role: 'admins', limit: 100 }),
  });
  const setRole = useMutation({
    mutationFn: (input: { user: AdminUser; role: StaffRole; grant: boolean }) =>
      api('admin.userRole', { role: input.role, grant: input.grant }, { params: { id: input.user._id } }),
    onSuccess: (_, input) => {
      const key = input.grant ? 'admins.granted' : 'admins.revoked';
      setNotice({
        tone: 'success',
        text: t(key, { user: input.user.user, role: t(`admins.role.${input.role}`) }),
      });
      void client.invalidateQueries({ queryKey: ['admin-users'] });
    },
    onError: (error) => setNotice({ tone: 'error', text: errorText(error) }),
  });

  return (
    <section className="dashboard-section" data-testid="dashboard-admins" aria-labelledby="admins-title">
      <h2 id="admins-title">{t('admins.title')}</h2>
      <p className="muted">{t('admins.note')}</p>
      <GrantForm
        busy={setRole.isPending}
        onGrant={(user, role) => setRole.mutate({ user, role, grant: true })}
        onError={(text) => setNotice({ tone: 'error', text })}
      />
      {notice && (
        <Alert tone={notice.tone} testId={notice.tone === 'success' ? 'admins-notice' : 'admins-error'}>
          {notice.text}
        </Alert>
      )}
      {query.isPending ? (
        <Loader />
      ) : query.isError ? (
        <Alert>{errorText(query.error)}</Alert>
      ) : query.data.items.length === 0 ? (
        <p className="admin-empty">{t('admins.empty')}</p>
      ) : (
        <table className="admin-table">
          <caption className="sr-only">{t('admins.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admins.user')}</th>
              <th scope="col">{t('admins.email')}</th>
              <th scope="col">{t('admins.roles')}</th>
              <th scope="col">{t('admins.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {query.data.items.map((item) => (
              <tr key={item._id} data-testid="admin-user-row" data-user={item.user}>
                <td data-label={t('admins.user')}>
                  <strong>{item.name}</strong> <Link to={`/${item.user}`}>@{item.user}</Link>
                </td>
                <td data-label={t('admins.email')} className="admin-wrap">
                  {item.email}
                </td>
                <td data-label={t('admins.roles')}>
                  <RoleChips roles={item.roles} />
                </td>
                <td data-label={t('admins.actions')}>
                  {item.user !== me &&
                    STAFF_ROLES.filter((role) => item.roles.includes(role)).map((role) => (
                      <button
                        key={role}
                        type="button"
                        className="button button--small"
                        disabled={setRole.isPending}
                        onClick={() => setRole.mutate({ user: item, role, grant: false })}
                        data-testid={`revoke-${role}`}
                      >
                        {t('admins.revoke', { role: t(`admins.role.${role}`) })}
                      </button>
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Finds an account by its exact username and grants it a staff role. */
function GrantForm({
  busy,
  onGrant,
  onError,
}: {
  busy: boolean;
  onGrant: (user: AdminUser, role: StaffRole) => void;
  onError: (text: string) => void;
}) {
  const { t } = useTranslation('dashboard');
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<StaffRole>('admin');
  const [looking, setLooking] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const wanted = username.trim().replace(/^@/, '');
    if (!wanted) {
      onError(t('admins.usernameRequired'));
      return;
    }
    setLooking(true);
    try {
      const found = await api('admin.users', { role: 'all', q: wanted, limit: 20 });
      const user = found.items.find((u) => u.user.toLowerCase() === wanted.toLowerCase());
      if (!user) onError(t('admins.notFound', { user: wanted }));
      else if (user.roles.includes(role)) onError(t('admins.already', { user: user.user }));
      else {
        onGrant(user, role);
        setUsername('');
      }
    } catch (error) {
      onError(errorText(error));
    } finally {
      setLooking(false);
    }
  };

  return (
    <form className="settings-form settings-form--inline" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor="grant-username">{t('admins.username')}</label>
        <input
          id="grant-username"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          autoComplete="off"
          maxLength={40}
          data-testid="grant-username"
        />
      </div>
      <div className="field">
        <label htmlFor="grant-role">{t('admins.roleLabel')}</label>
        <select
          id="grant-role"
          value={role}
          onChange={(event) => setRole(event.target.value as StaffRole)}
          data-testid="grant-role"
        >
          {STAFF_ROLES.map((option) => (
            <option key={option} value={option}>
              {t(`admins.role.${option}`)}
            </option>
          ))}
        </select>
      </div>
      <button
        type="submit"
        className="button button--primary"
        disabled={busy || looking}
        data-testid="grant-submit"
      >
        {t('admins.grant')}
      </button>
    </form>
  );
}
