import type { AdminUser } from '@fanverse/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { hasSomeRole, useSession } from '../../app/session.store.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert } from '../../ui/Feedback.tsx';
import {
  AdminListState,
  Initial,
  RoleChips,
  SearchForm,
  useDateFormat,
  useListParams,
} from './AdminParts.tsx';
import { ADMIN_KEYS } from './adminKeys.ts';

export const USER_ROLES = ['all', 'fans', 'creators', 'admins'] as const;
export type UserRoleFilter = (typeof USER_ROLES)[number];

/** The admin area that lists a role filter (fans and creators have their own areas, spec §2). */
export function roleLink(role: UserRoleFilter): string {
  if (role === 'fans') return '/?admin=fans';
  if (role === 'creators') return '/?admin=creators';
  return role === 'admins' ? '/?admin=users&role=admins' : '/?admin=users';
}

const NO_STATUS = [''] as const;

/** admin=users / fans / creators: searchable, paged lists with suspend and restore. */
export function UsersView({ filter: role }: { filter: UserRoleFilter }) {
  const { t } = useTranslation('admin');
  const me = useSession((s) => s.user);
  const canAct = hasSomeRole(me, ['admin', 'super']);
  const isSuper = hasSomeRole(me, ['super']);
  const { q, page, update } = useListParams(NO_STATUS, '');
  const [target, setTarget] = useState<{ user: AdminUser; action: 'suspend' | 'restore' } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const client = useQueryClient();
  const date = useDateFormat(false);
  const query = useQuery({
    queryKey: [ADMIN_KEYS.users, role, q, page],
    queryFn: () => api('admin.users', { role, q: q || undefined, page }),
    placeholderData: keepPreviousData,
  });
  const act = useMutation({
    mutationFn: (input: { id: string; action: 'suspend' | 'restore' }) =>
      api('admin.userAction', { action: input.action }, { params: { id: input.id } }),
    onSuccess: (_, input) => {
      setNotice(
        t(input.action === 'suspend' ? 'users.suspended' : 'users.restored', { user: target?.user.user }),
      );
      setTarget(null);
      void client.invalidateQueries({ queryKey: [ADMIN_KEYS.users] });
    },
  });

  const setRole = useMutation({
    mutationFn: (input: { id: string; role: 'admin' | 'developer'; grant: boolean }) =>
      api('admin.userRole', { role: input.role, grant: input.grant }, { params: { id: input.id } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: [ADMIN_KEYS.users] }),
  });

  return (
    <section className="panel admin-view" data-testid="admin-users" data-role={role}>
      <h1 className="panel__title">{t(`users.title.${role}`)}</h1>
      <div className="admin-toolbar">
        <nav className="tabs" aria-label={t('users.filter')}>
          {USER_ROLES.map((option) => (
            <Link
              key={option}
              to={roleLink(option)}
              className={`tab${option === role ? ' tab--active' : ''}`}
              aria-current={option === role ? 'page' : undefined}
              data-testid={`user-filter-${option}`}
            >
              {t(`users.roles.${option}`)}
            </Link>
          ))}
        </nav>
        <SearchForm
          value={q}
          onSearch={(next) => update({ q: next })}
          label={t('users.search')}
          testId="user-search"
        />
      </div>
      <AdminListState
        query={query}
        notice={notice}
        empty={t('users.empty')}
        onPage={(next) => update({ page: next })}
      >
        {(data) => (
          <>
            <table className="admin-table">
              <caption className="sr-only">{t(`users.title.${role}`)}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('users.columns.user')}</th>
                  <th scope="col">{t('users.columns.email')}</th>
                  <th scope="col">{t('users.columns.roles')}</th>
                  <th scope="col">{t('users.columns.joined')}</th>
                  <th scope="col">{t('users.columns.status')}</th>
                  {canAct && <th scope="col">{t('users.columns.actions')}</th>}
                </tr>
              </thead>
              <tbody>
                {data.items.map((item) => (
                  <tr
                    key={item._id}
                    data-testid="user-row"
                    data-user={item.user}
                    data-suspended={item.suspended ? 'true' : 'false'}
                    data-deleted={item.deletedAt ? 'true' : 'false'}
                  >
                    <td data-label={t('users.columns.user')}>
                      <span className="admin-user">
                        <Initial name={item.name || item.user} />
                        <span>
                          <strong>{item.deletedAt ? t('users.deletedUser') : item.name}</strong>
                          {!item.deletedAt && (
                            <>
                              <br />
                              <Link to={`/${item.user}`}>@{item.user}</Link>
                            </>
                          )}
                          {item.verified && (
                            <span className="admin-chip admin-chip--ok">{t('users.verified')}</span>
                          )}
                        </span>
                      </span>
                    </td>
                    <td data-label={t('users.columns.email')} className="admin-wrap">
                      {item.email}
                    </td>
                    <td data-label={t('users.columns.roles')}>
                      <RoleChips roles={item.roles} />
                    </td>
                    <td data-label={t('users.columns.joined')} className="admin-nowrap">
                      {date(item.createdAt)}
                    </td>
                    <td data-label={t('users.columns.status')}>
                      {item.deletedAt ? (
                        <span className="admin-status admin-status--rejected" data-testid="user-deleted">
                          {t('users.status.deleted', { date: date(item.deletedAt) })}
                        </span>
                      ) : (
                        <span
                          className={`admin-status admin-status--${item.suspended ? 'rejected' : 'accepted'}`}
                        >
                          {t(item.suspended ? 'users.status.suspended' : 'users.status.active')}
                        </span>
                      )}
                    </td>
                    {canAct && (
                      <td data-label={t('users.columns.actions')}>
                        {item._id === me?._id ? (
                          <span className="muted">{t('users.you')}</span>
                        ) : item.deletedAt ? null : item.suspended ? (
                          <button
                            type="button"
                            className="button button--small"
                            onClick={() => setTarget({ user: item, action: 'restore' })}
                            data-testid="user-restore"
                            aria-label={t('users.restoreUser', { user: item.user })}
                          >
                            {t('users.restore')}
                          </button>
                        ) : (
                          <button
                            type="button"
                            className="button button--small button--danger"
                            onClick={() => setTarget({ user: item, action: 'suspend' })}
                            data-testid="user-suspend"
                            aria-label={t('users.suspendUser', { user: item.user })}
                          >
                            {t('users.suspend')}
                          </button>
                        )}
                        {isSuper &&
                          item._id !== me?._id &&
                          !item.deletedAt &&
                          !item.roles.includes('super') &&
                          (['admin', 'developer'] as const).map((role) => {
                            const holds = item.roles.includes(role);
                            return (
                              <button
                                key={role}
                                type="button"
                                className="button button--small"
                                disabled={setRole.isPending}
                                onClick={() => setRole.mutate({ id: item._id, role, grant: !holds })}
                                data-testid={`user-role-${role}`}
                              >
                                {t(`users.${holds ? 'revoke' : 'grant'}.${role}`)}
                              </button>
                            );
                          })}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </AdminListState>
      <ConfirmModal
        open={target !== null}
        title={t(target?.action === 'restore' ? 'users.restoreTitle' : 'users.suspendTitle')}
        onCancel={() => {
          setTarget(null);
          act.reset();
        }}
        onConfirm={() => target && act.mutate({ id: target.user._id, action: target.action })}
        busy={act.isPending}
        danger={target?.action === 'suspend'}
        confirmLabel={t(target?.action === 'restore' ? 'users.restore' : 'users.suspend')}
        testId="user-confirm"
      >
        <p>
          {t(target?.action === 'restore' ? 'users.restoreText' : 'users.suspendText', {
            user: target?.user.user ?? '',
          })}
        </p>
        {act.isError && <Alert>{errorText(act.error)}</Alert>}
      </ConfirmModal>
      {setRole.isError && <Alert>{errorText(setRole.error)}</Alert>}
    </section>
  );
}
