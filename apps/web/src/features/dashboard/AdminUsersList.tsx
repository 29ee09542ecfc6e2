import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';

/** The administrators (admin.users role=admins), read-only: roles are granted on the server. */
export function AdminUsersList() {
  const { t } = useTranslation('dashboard');
  const query = useQuery({
    queryKey: ['admin-users', 'admins', '', 1, 'dashboard'],
    queryFn: () => api('admin.users', { role: 'admins', limit: 100 }),
  });
  return (
    <section className="dashboard-section" data-testid="dashboard-admins" aria-labelledby="admins-title">
      <h2 id="admins-title">{t('admins.title')}</h2>
      <p className="muted">{t('admins.note')}</p>
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
                  {item.roles.map((role) => (
                    <span key={role} className="admin-chip">
                      {role}
                    </span>
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
