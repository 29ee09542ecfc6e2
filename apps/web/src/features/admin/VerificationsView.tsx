import type { Verification } from '@fanverse/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { countryName } from '../profile/countries.ts';
import {
  AdminListState,
  FilterTabs,
  Initial,
  SearchForm,
  useDateFormat,
  useListParams,
} from './AdminParts.tsx';
import { ADMIN_KEYS } from './adminKeys.ts';
import { VerificationDetail } from './VerificationDetail.tsx';

const STATUSES = ['pending', 'accepted', 'rejected', 'all'] as const;

/**
 * The verification queue (admin=verifications) and the applicants' profiles (admin=profiles):
 * filters, search, paging, and the detail with the three photos and the decision.
 */
export function VerificationsView({ mode }: { mode: 'documents' | 'profiles' }) {
  const { t, i18n } = useTranslation('admin');
  const { status, q, page, update } = useListParams(STATUSES, 'pending');
  const [open, setOpen] = useState<Verification | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const date = useDateFormat();
  const query = useQuery({
    queryKey: [ADMIN_KEYS.verifications, status, q, page],
    queryFn: () => api('admin.verifications', { status, q: q || undefined, page }),
    placeholderData: keepPreviousData,
  });
  const testId = mode === 'documents' ? 'admin-verifications' : 'admin-profiles';

  return (
    <section className="panel admin-view" data-testid={testId}>
      <h1 className="panel__title">{t(mode === 'documents' ? 'verifications.title' : 'profiles.title')}</h1>
      <p className="muted">{t(mode === 'documents' ? 'verifications.intro' : 'profiles.intro')}</p>
      <div className="admin-toolbar">
        <FilterTabs
          label={t('filter')}
          options={STATUSES}
          value={status}
          onChange={(next) => update({ status: next })}
          text={(s) => t(`verifications.status.${s}`)}
          testId="verification-filter"
        />
        <SearchForm
          value={q}
          onSearch={(next) => update({ q: next })}
          label={t('verifications.search')}
          testId="verification-search"
        />
      </div>
      <AdminListState
        query={query}
        notice={notice}
        empty={t('verifications.empty')}
        onPage={(next) => update({ page: next })}
      >
        {(data) => (
          <>
            <ul className="admin-list">
              {data.items.map((item) => (
                <li
                  key={item._id}
                  className="admin-card"
                  data-testid="verification-item"
                  data-id={item._id}
                  data-user={item.user.user}
                  data-status={item.status}
                >
                  <div className="admin-card__who">
                    <Initial name={item.user.name || item.user.user} />
                    <div>
                      <strong>{item.fields.fullName || item.user.name}</strong>
                      <span className="muted"> @{item.user.user}</span>
                      <div className="muted admin-card__meta">{item.user.email}</div>
                    </div>
                    <span className={`admin-status admin-status--${item.status}`}>
                      {t(`verifications.status.${item.status}`)}
                    </span>
                  </div>
                  <dl className="admin-facts">
                    <div>
                      <dt>{t('verifications.sent')}</dt>
                      <dd>{date(item.submittedAt)}</dd>
                    </div>
                    {mode === 'documents' ? (
                      <>
                        <div>
                          <dt>{t('fields.documentType')}</dt>
                          <dd>{item.documentType ? t(`documentTypes.${item.documentType}`) : '—'}</dd>
                        </div>
                        <div>
                          <dt>{t('verifications.photos')}</dt>
                          <dd>{t('verifications.photoCount', { count: item.documents.length })}</dd>
                        </div>
                      </>
                    ) : (
                      <>
                        <div>
                          <dt>{t('fields.country')}</dt>
                          <dd>
                            {item.fields.country ? countryName(item.fields.country, i18n.language) : '—'}
                          </dd>
                        </div>
                        <div>
                          <dt>{t('fields.instagram')}</dt>
                          <dd>{item.fields.instagram || '—'}</dd>
                        </div>
                        <div className="admin-facts__wide">
                          <dt>{t('fields.description')}</dt>
                          <dd className="admin-clamp">{item.fields.description || '—'}</dd>
                        </div>
                      </>
                    )}
                    {item.reason && (
                      <div className="admin-facts__wide">
                        <dt>{t('verifications.reason')}</dt>
                        <dd>{item.reason}</dd>
                      </div>
                    )}
                  </dl>
                  <div className="button-row">
                    <button
                      type="button"
                      className="button button--primary button--small"
                      onClick={() => {
                        setNotice(null);
                        setOpen(item);
                      }}
                      data-testid="verification-open"
                    >
                      {item.status === 'pending' ? t('verifications.review') : t('verifications.view')}
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}
      </AdminListState>
      {open && (
        <VerificationDetail
          verification={open}
          onClose={() => setOpen(null)}
          onDecided={(decided) => {
            setOpen(null);
            setNotice(
              t(
                decided.status === 'accepted'
                  ? 'verifications.acceptedNotice'
                  : 'verifications.rejectedNotice',
                {
                  user: decided.user.user,
                },
              ),
            );
          }}
        />
      )}
    </section>
  );
}
