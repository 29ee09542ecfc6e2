import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { myFeedPath } from '../app/navigation.ts';
import { useSession } from '../app/session.store.ts';
import { useUi } from '../app/ui.store.ts';
import { MessagesButton } from '../features/messages/MessagesButton.tsx';
import { NotificationsButton } from '../features/notifications/NotificationsButton.tsx';
import { Icon } from './icons.tsx';

/** The bottom bar on phones for a logged-in person: home, explore, messages, notifications, profile. */
export function BottomNav() {
  const { t } = useTranslation('shell');
  const user = useSession((s) => s.user);
  const screen = useUi((s) => s.screen);
  const location = useLocation();
  if (screen !== 'mobile' || !user) return null;
  const here = `${location.pathname}${location.search}`;
  const profile = myFeedPath(user);
  const current = (path: string) => (here === path ? 'page' : undefined);
  return (
    <nav className="bottom-nav" aria-label={t('bottomNav.label')} data-testid="bottom-nav">
      <Link to="/" className="bottom-nav__item" aria-current={current('/')} data-testid="bottom-home">
        <span className="bottom-nav__icon">
          <Icon name="home" />
        </span>
        <span className="bottom-nav__label">{t('bottomNav.home')}</span>
      </Link>
      <Link
        to="/?explore=1"
        className="bottom-nav__item"
        aria-current={current('/?explore=1')}
        data-testid="bottom-explore"
      >
        <span className="bottom-nav__icon">
          <Icon name="explore" />
        </span>
        <span className="bottom-nav__label">{t('bottomNav.explore')}</span>
      </Link>
      <MessagesButton label={t('bottomNav.messages')} />
      <NotificationsButton label={t('bottomNav.notifications')} />
      <Link
        to={profile}
        className="bottom-nav__item"
        aria-current={current(profile)}
        data-testid="bottom-profile"
      >
        <span className="bottom-nav__icon">
          <Icon name="user" />
        </span>
        <span className="bottom-nav__label">{t('bottomNav.profile')}</span>
      </Link>
    </nav>
  );
}
