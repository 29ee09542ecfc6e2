import { TIMINGS } from '@fanverse/contract';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Boundary } from '../../app/hydration.tsx';
import { withTimeout } from '../../app/lazy.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert, Loader, Panel } from '../../ui/Feedback.tsx';
import { AdminHome } from './AdminHome.tsx';
import { areaAllowed, isAdminArea } from './adminAreas.ts';
import { ComplaintsView } from './ComplaintsView.tsx';
import { UsersView } from './UsersView.tsx';
import { VerificationsView } from './VerificationsView.tsx';
import './admin.css';

/** The statistics come with their charting library: loaded when an admin opens them. */
const StatisticsView = lazy(() =>
  withTimeout(import('../statistics/StatisticsView.tsx'), TIMINGS.chunkTimeoutMs, 'statistics'),
);

/** The admin area of ?admin=<area> (spec §2); the server checks the role of every call too. */
export function AdminView({ area }: { area: string }) {
  const { t } = useTranslation('admin');
  const [params] = useSearchParams();
  const user = useSession((s) => s.user);
  if (!isAdminArea(area)) {
    return (
      <Panel title={t('unknown.title')} testId="view-admin">
        <Alert>{t('unknown.body', { area })}</Alert>
      </Panel>
    );
  }
  if (!areaAllowed(area, user)) {
    return (
      <Panel title={t(`areas.${area}`)} testId="view-admin">
        <Alert>{t('forbidden')}</Alert>
      </Panel>
    );
  }
  switch (area) {
    case 'home':
      return <AdminHome />;
    case 'verifications':
      return <VerificationsView key="documents" mode="documents" />;
    case 'profiles':
      return <VerificationsView key="profiles" mode="profiles" />;
    case 'complaints':
      return <ComplaintsView />;
    case 'fans':
      return <UsersView key="fans" filter="fans" />;
    case 'creators':
      return <UsersView key="creators" filter="creators" />;
    case 'users': {
      const role = params.get('role') === 'admins' ? 'admins' : 'all';
      return <UsersView key={role} filter={role} />;
    }
    case 'sales':
    case 'bags':
    case 'statistics':
      return (
        <Boundary fallback={<Loader />}>
          <StatisticsView fallback={area === 'statistics' ? 'home' : area} />
        </Boundary>
      );
  }
}
