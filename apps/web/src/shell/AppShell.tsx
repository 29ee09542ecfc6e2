import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import {
  useAccountLanguageSync,
  useGlobalBehaviours,
  useHeartbeat,
  usePreloadErrorWatcher,
  useScreenClassWatcher,
  useSocketLifecycle,
  useStartup,
  useTwoFactorRequiredRedirect,
} from '../app/lifecycle.ts';
import { useSession } from '../app/session.store.ts';
import { StartupContext } from '../app/startup.context.ts';
import { useUi } from '../app/ui.store.ts';
import { ConfirmEmailBanner } from '../features/account/ConfirmEmailBanner.tsx';
import { Loader } from '../ui/Feedback.tsx';
import { AnalyticsConsent } from './AnalyticsConsent.tsx';
import { AppAlert } from './AppAlert.tsx';
import { BottomNav } from './BottomNav.tsx';
import { ErrorScreen } from './ErrorScreen.tsx';
import { Footer } from './Footer.tsx';
import { AccountDialog, AgeAdvice, UpdatePrompt } from './Gates.tsx';
import { Header } from './Header.tsx';
import { AdminMenu, CreatorMenu } from './menus.tsx';
import { HelpHost, OverlayHost } from './OverlayHost.tsx';
import { NotificationPopups } from './Popups.tsx';

/** The application frame: start-up, header, page, overlays and app-wide behaviours. */
export function AppShell() {
  const { t } = useTranslation('shell');
  const { retry } = useStartup();
  useScreenClassWatcher();
  useGlobalBehaviours();
  usePreloadErrorWatcher();
  useSocketLifecycle();
  useTwoFactorRequiredRedirect();
  useHeartbeat();
  useAccountLanguageSync();
  const status = useSession((s) => s.status);
  const fatal = useUi((s) => s.fatal);
  const location = useLocation();
  const appName = useSession((s) => s.app?.name);
  useEffect(() => {
    if (appName) document.title = appName;
  }, [appName]);
  // After a page change (not the first load), focus the content when the focused element went
  // away, so keyboard users continue from the new page.
  const firstPage = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every page change.
  useEffect(() => {
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) {
      document.getElementById('main')?.focus({ preventScroll: true });
    }
  }, [location.pathname]);

  if (fatal) return <ErrorScreen kind={fatal} />;
  if (status === 'loading') return <Loader page label={t('starting')} testId="app-loader" />;
  if (status === 'failed' && location.pathname !== '/error/api') return <Navigate to="/error/api" replace />;

  return (
    <StartupContext.Provider value={retry}>
      <a className="skip-link" href="#main">
        {t('skip')}
      </a>
      <Header />
      <main id="main" className="app-main" tabIndex={-1}>
        {location.pathname !== '/auth/confirm' && <ConfirmEmailBanner />}
        {/* Keyed by path so the 300 ms page transition (spec §9) plays on every page change. */}
        <div key={location.pathname} className="page-transition">
          <Outlet />
        </div>
      </main>
      <Footer />
      <BottomNav />
      <OverlayHost />
      <HelpHost />
      <NotificationPopups />
      <AdminMenu />
      <CreatorMenu />
      <AccountDialog />
      <UpdatePrompt />
      <AgeAdvice />
      <AppAlert />
      <AnalyticsConsent />
    </StartupContext.Provider>
  );
}
