import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';

/** /dashboard (super role only) with its child /dashboard/admin/products. */
export default function DashboardPage() {
  const { t } = useTranslation('home');
  return (
    <section className="panel" data-testid="dashboard">
      <h1 className="panel__title">{t('dashboard.title')}</h1>
      <nav className="tabs" aria-label={t('dashboard.title')}>
        <NavLink end to="/dashboard" className="tab">
          {t('dashboard.home')}
        </NavLink>
        <NavLink to="/dashboard/admin/products" className="tab">
          {t('dashboard.products')}
        </NavLink>
      </nav>
      <Outlet />
    </section>
  );
}
