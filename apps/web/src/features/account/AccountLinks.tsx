import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The own profile's account section: signed-in devices and two-step sign-in. */
export function AccountLinks() {
  const { t } = useTranslation('account');
  return (
    <nav className="account-links" aria-label={t('security.title')}>
      <Link to="/user/devices" className="button" data-testid="profile-devices-link">
        {t('devices.link')}
      </Link>
      <Link to="/user/security" className="button" data-testid="profile-security-link">
        {t('security.link')}
      </Link>
    </nav>
  );
}
