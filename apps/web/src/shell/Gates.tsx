import { FIRST_VIEW_AGE_PATH } from '@fanverse/contract';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { useFirstRender } from '../app/firstRender.tsx';
import { hasAgeCookie, setAgeCookie } from '../app/firstViewCookies.ts';
import { useSpecialUsernameDialog } from '../app/lifecycle.ts';
import { applyUpdate } from '../app/serviceWorker.ts';
import { useSession } from '../app/session.store.ts';
import { useUi } from '../app/ui.store.ts';
import { Modal } from '../ui/Modal.tsx';

const AGE_KEY = 'ageAccepted';
const AGE_CONFIRMED = 'confirm';
/** Where "Leave" goes: away from the site. */
const LEAVE_URL = 'https://www.google.com/';
/** Pages a visitor may read before accepting (the advice links to them), and the error pages. */
const AGE_FREE_PATHS = ['/terms', '/privacy', '/usc2257'];
const isAgeFree = (path: string) => AGE_FREE_PATHS.includes(path) || path.startsWith('/error/');

/** Whether this browser accepted the age notice: in the app (localStorage) or through its form (the cookie). */
export function ageAccepted(): boolean {
  try {
    if (localStorage.getItem(AGE_KEY) === AGE_CONFIRMED) return true;
  } catch {
    // No storage: the cookie alone says.
  }
  return hasAgeCookie();
}

/** Age advice for logged-out visitors (spec §1, §4): blocks the page until accepted. */
export function AgeAdvice() {
  const { t } = useTranslation('shell');
  const loggedIn = useSession((s) => !!s.token);
  const location = useLocation();
  // The server's first view (ADR 0048) and its hydration go by the fv_age cookie the server read,
  // then this browser's answer.
  const firstRender = useFirstRender();
  const [accepted, setAccepted] = useState(() => (firstRender ? firstRender.ageAccepted : ageAccepted()));
  useEffect(() => {
    if (!firstRender) setAccepted(ageAccepted());
  }, [firstRender]);
  const open = !loggedIn && !accepted && !isAgeFree(location.pathname);
  return (
    <Modal open={open} title={t('age.title')} testId="age-advice" className="age-advice">
      <p>{t('age.body')}</p>
      <p>
        <Trans
          t={t}
          i18nKey="age.terms"
          components={{ terms: <Link to="/terms" />, privacy: <Link to="/privacy" /> }}
        />
      </p>
      {/* A form, so the notice can be answered before the page's script runs (a slow connection, a
          first view not yet hydrated): the browser posts it and the server sets the cookie and
          loads the page again. The running app answers it here instead. */}
      <form
        className="button-row"
        method="post"
        action={`${FIRST_VIEW_AGE_PATH}?to=${encodeURIComponent(location.pathname + location.search)}`}
        onSubmit={(event) => {
          event.preventDefault();
          try {
            localStorage.setItem(AGE_KEY, AGE_CONFIRMED);
          } catch {
            // Without storage the choice lasts for this page view (and the cookie).
          }
          setAgeCookie();
          setAccepted(true);
        }}
      >
        <button type="submit" className="button button--primary" data-testid="age-accept" data-autofocus="">
          {t('age.accept')}
        </button>
        <a className="button" data-testid="age-leave" href={LEAVE_URL} rel="noreferrer">
          {t('age.leave')}
        </a>
      </form>
    </Modal>
  );
}

/** Update-available prompt and banner (spec §2, §4), shown when a new service worker waits. */
export function UpdatePrompt() {
  const { t } = useTranslation('shell');
  const available = useUi((s) => s.updateAvailable);
  const dismissed = useUi((s) => s.updatePromptDismissed);
  const dismiss = useUi((s) => s.dismissUpdatePrompt);
  if (!available) return null;
  return (
    <>
      <div className="update-banner" role="status" data-testid="update-banner">
        <span>{t('update.banner')}</span>
        <button type="button" className="link-button" onClick={applyUpdate}>
          {t('update.reload')}
        </button>
      </div>
      <Modal open={!dismissed} onClose={dismiss} title={t('update.title')} testId="update-prompt">
        <p>{t('update.body')}</p>
        <div className="button-row">
          <button
            type="button"
            className="button button--primary"
            onClick={applyUpdate}
            data-testid="update-reload"
          >
            {t('update.reload')}
          </button>
          <button type="button" className="button" onClick={dismiss}>
            {t('update.later')}
          </button>
        </div>
      </Modal>
    </>
  );
}

/** The account dialog for usernames with special characters, 6 s after load (spec §2). */
export function AccountDialog() {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const [open, close] = useSpecialUsernameDialog();
  const username = useSession((s) => s.user?.user ?? '');
  return (
    <Modal open={open} onClose={close} title={t('account.title')} testId="account-dialog">
      <p>{t('account.body', { username })}</p>
      <div className="button-row">
        <button
          type="button"
          className="button button--primary"
          onClick={() => {
            close();
            navigate('/?feed=my-profile');
          }}
          data-testid="account-dialog-profile"
          data-autofocus=""
        >
          {t('account.change')}
        </button>
        <button type="button" className="button" onClick={close}>
          {t('account.later')}
        </button>
      </div>
    </Modal>
  );
}
