import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet } from 'react-router';
import '../admin/admin.css';
import '../statistics/statistics.css';
import './dashboard.css';

/** /dashboard (super role only) with its child /dashboard/admin/products. */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  return (
    <section className="panel admin-view dashboard" data-testid="dashboard">
      <h1 className="panel__title">{t('title')}</h1>
      <nav className="tabs" aria-label={t('title')}>
        <NavLink end to="/dashboard" className="tab" data-testid="dashboard-tab-home">
          {t('nav.home')}
        </NavLink>
        <NavLink to="/dashboard/admin/products" className="tab" data-testid="dashboard-tab-products">
          {t('nav.products')}
        </NavLink>
        <Link to="/?admin=statistics" className="tab">
          {t('nav.statistics')}
        </Link>
      </nav>
      <Outlet />
    </section>
  );
}
