import type { Counters } from '@fanverse/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasSomeRole, useSession } from '../../app/session.store.ts';
import { CommissionSetting } from '../dashboard/CommissionSetting.tsx';
import '../dashboard/dashboard.css';
import { refreshCounters } from './AdminParts.tsx';
import { AnnouncementForm } from './AnnouncementForm.tsx';
import { type AdminArea, areaAllowed } from './adminAreas.ts';

const QUEUES: { counter: keyof Counters; to: string; area?: AdminArea }[] = [
  { counter: 'documentsByVerify', to: '/?admin=verifications', area: 'verifications' },
  { counter: 'profilesByVerify', to: '/?admin=profiles', area: 'profiles' },
  { counter: 'creatorsByVerify', to: '/?admin=verifications', area: 'verifications' },
  { counter: 'complaintsByVerify', to: '/?admin=complaints', area: 'complaints' },
  { counter: 'postsByReview', to: '/?adminStatus=new' },
  { counter: 'storiesByReview', to: '/?adminStatus=new' },
];

/** admin=home: what waits in each queue, links to the areas (spec §3 counters) and the commission. */
export function AdminHome() {
  const { t } = useTranslation('admin');
  const counters = useSession((s) => s.counters);
  const user = useSession((s) => s.user);
  useEffect(() => refreshCounters(), []);
  const queues = QUEUES.filter((q) => !q.area || areaAllowed(q.area, user));
  return (
    <section className="panel admin-view" data-testid="admin-home">
      <h1 className="panel__title">{t('home.title')}</h1>
      <p className="muted">{t('home.intro')}</p>
      <ul className="admin-counters">
        {queues.map(({ counter, to }) => (
          <li key={counter}>
            <Link to={to} className="admin-counter" data-testid={`admin-counter-${counter}`}>
              <span className="admin-counter__value">{counters ? counters[counter] : '…'}</span>
              <span className="admin-counter__label">{t(`counters.${counter}`)}</span>
            </Link>
          </li>
        ))}
      </ul>
      <h2 className="admin-subtitle">{t('home.areas')}</h2>
      <ul className="admin-links">
        {(
          [
            'complaints',
            'verifications',
            'profiles',
            'users',
            'fans',
            'creators',
            'sales',
            'bags',
            'statistics',
          ] as const
        )
          .filter((area) => areaAllowed(area, user))
          .map((area) => (
            <li key={area}>
              <Link to={`/?admin=${area}`} className="button">
                {t(`areas.${area}`)}
              </Link>
            </li>
          ))}
        {hasSomeRole(user, ['super']) && (
          <li>
            <Link to="/dashboard" className="button">
              {t('areas.dashboard')}
            </Link>
          </li>
        )}
      </ul>
      {/* Administrators set the commission here; the super also has it on the dashboard. */}
      {hasSomeRole(user, ['admin', 'super']) && (
        <>
          <AnnouncementForm />
          <div className="admin-home__settings">
            <CommissionSetting />
          </div>
        </>
      )}
    </section>
  );
}
