import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';

/** /support with its children: the support home, /support/faq and /support/billing. */
export default function SupportPage() {
  const { t } = useTranslation('pages');
  return (
    <div className="support" data-testid="support-page">
      <nav className="tabs" aria-label={t('support.title')}>
        <NavLink end to="/support" className="tab">
          {t('support.tabs.home')}
        </NavLink>
        <NavLink to="/support/faq" className="tab">
          {t('support.tabs.faq')}
        </NavLink>
        <NavLink to="/support/billing" className="tab">
          {t('support.tabs.billing')}
        </NavLink>
      </nav>
      <Outlet />
    </div>
  );
}
