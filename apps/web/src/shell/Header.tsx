import { ADMIN_ROLES, APP_DEFAULT_NAME } from '@fanverse/contract';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { myFeedPath, useAppBack, useGoHome } from '../app/navigation.ts';
import { hasSomeRole, isCreator, useSession } from '../app/session.store.ts';
import { useUi } from '../app/ui.store.ts';
import { MessagesButton } from '../features/messages/MessagesButton.tsx';
import { NotificationsButton } from '../features/notifications/NotificationsButton.tsx';
import { HeaderSearch } from './HeaderSearch.tsx';
import { Icon } from './icons.tsx';
import { LanguageSelector } from './LanguageSelector.tsx';
import { UserMenu } from './menus.tsx';

/**
 * The app header (49 px, brand colour): back, logo, home, my feed, language, menus. On phones a
 * logged-in person's home, my feed, messages and notifications live in the bottom bar instead,
 * so the brand always has room.
 */
export function Header() {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const back = useAppBack();
  const goHome = useGoHome();
  const appName = useSession((s) => s.app?.name ?? APP_DEFAULT_NAME);
  const user = useSession((s) => s.user);
  const screen = useUi((s) => s.screen);
  const setAdminMenuOpen = useUi((s) => s.setAdminMenuOpen);
  const setCreatorMenuOpen = useUi((s) => s.setCreatorMenuOpen);
  const setHelpOpen = useUi((s) => s.setHelpOpen);
  const [userMenuOpen, setUserMenuOpen] = useState(false);
  const closeUserMenu = useCallback(() => setUserMenuOpen(false), []);
  const mobile = screen === 'mobile';

  return (
    <header className="app-header" data-testid="header">
      <button
        type="button"
        className="icon-button"
        onClick={back}
        aria-label={t('header.back')}
        data-testid="back-button"
      >
        <Icon name="back" />
      </button>
      <Link to="/" className="app-header__logo" data-testid="logo">
        {appName}
      </Link>
      {!mobile && <HeaderSearch />}
      <nav className="app-header__actions" aria-label={t('header.navigation')}>
        {!(mobile && user) && (
          <button
            type="button"
            className="icon-button"
            onClick={goHome}
            aria-label={t('header.home')}
            data-testid="home-button"
          >
            <Icon name="home" />
          </button>
        )}
        {mobile && <HeaderSearch />}
        {!mobile && (
          <Link
            to="/?explore=1"
            className="icon-button"
            aria-label={t('header.explore')}
            data-testid="explore-button"
          >
            <Icon name="compass" />
          </Link>
        )}
        {user && !mobile && (
          <button
            type="button"
            className="icon-button"
            onClick={() => navigate(myFeedPath(user))}
            aria-label={t('header.myFeed')}
            data-testid="my-feed-button"
          >
            <Icon name="feed" />
          </button>
        )}
        {user && !mobile && <MessagesButton />}
        {user && !mobile && <NotificationsButton />}
        {/* On phones a signed-in person finds Help in the account menu (the bar has no room). */}
        {!(mobile && user) && (
          <button
            type="button"
            className="icon-button"
            onClick={() => setHelpOpen(true)}
            aria-label={t('header.help')}
            data-testid="help-button"
          >
            <Icon name="help" />
          </button>
        )}
        <LanguageSelector />
        {mobile && hasSomeRole(user, ADMIN_ROLES) && (
          <button
            type="button"
            className="icon-button"
            onClick={() => setAdminMenuOpen(true)}
            aria-label={t('adminMenu.title')}
            data-testid="admin-mobile-menu-button"
          >
            <Icon name="shield" />
          </button>
        )}
        {mobile && isCreator(user) && (
          <button
            type="button"
            className="icon-button"
            onClick={() => setCreatorMenuOpen(true)}
            aria-label={t('creatorMenu.title')}
            data-testid="creator-mobile-menu-button"
          >
            <Icon name="star" />
          </button>
        )}
        {user ? (
          <div className="app-header__user">
            <button
              type="button"
              className="avatar-button"
              aria-label={t('userMenu.open', { name: user.user })}
              aria-expanded={userMenuOpen}
              aria-controls={userMenuOpen ? 'user-menu' : undefined}
              onClick={() => setUserMenuOpen((open) => !open)}
              data-testid="user-menu-button"
            >
              {user.avatar ? (
                <img src={user.avatar} alt="" className="avatar" />
              ) : (
                <span className="avatar avatar--initial" aria-hidden="true">
                  {(user.name || user.user).charAt(0).toUpperCase()}
                </span>
              )}
            </button>
            {userMenuOpen && <UserMenu onClose={closeUserMenu} />}
          </div>
        ) : (
          <div className="app-header__auth">
            <Link to="/login" className="header-link" data-testid="login-link">
              {t('header.login')}
            </Link>
            {!mobile && (
              <Link to="/signup" className="header-link header-link--outlined" data-testid="signup-link">
                {t('header.signup')}
              </Link>
            )}
          </div>
        )}
      </nav>
    </header>
  );
}
