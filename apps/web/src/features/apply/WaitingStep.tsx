import type { ApplyState } from '@fanverse/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../app/session.store.ts';

/** Step 4: waiting for the decision (24–72 h), the rejection reason with a resend, or the welcome. */
export function WaitingStep({ state, onResend }: { state: ApplyState; onResend: () => void }) {
  const { t, i18n } = useTranslation('apply');
  const handle = useSession((s) => s.user?.user ?? '');
  const sent = state.submittedAt
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(state.submittedAt),
      )
    : null;

  if (state.status === 'accepted') {
    return (
      <div className="apply-result apply-result--accepted" data-testid="apply-step-4" data-status="accepted">
        <h2>{t('accepted.title')}</h2>
        <p>{t('accepted.body')}</p>
        <div className="button-row">
          <Link to="/post/create" className="button button--primary" data-testid="apply-first-post">
            {t('accepted.firstPost')}
          </Link>
          <Link to={`/${handle}`} className="button">
            {t('accepted.myPage')}
          </Link>
        </div>
      </div>
    );
  }

  if (state.status === 'rejected') {
    return (
      <div className="apply-result apply-result--rejected" data-testid="apply-step-4" data-status="rejected">
        <h2>{t('rejected.title')}</h2>
        <p>{t('rejected.body')}</p>
        <blockquote className="apply-reason" data-testid="apply-rejected-reason">
          {state.reason || t('rejected.noReason')}
        </blockquote>
        <p>{t('rejected.resendHint')}</p>
        <div className="button-row">
          <button
            type="button"
            className="button button--primary"
            onClick={onResend}
            data-testid="apply-resend"
          >
            {t('rejected.resend')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="apply-result" data-testid="apply-step-4" data-status={state.status}>
      <div data-testid="apply-waiting" role="status">
        <h2>{t('waiting.title')}</h2>
        <p>{t('waiting.body')}</p>
        <p>{t('waiting.inbox')}</p>
        {sent && <p className="muted">{t('waiting.sent', { date: sent })}</p>}
      </div>
      <div className="button-row">
        <Link to="/?messages=wall" className="button">
          {t('waiting.openInbox')}
        </Link>
        <Link to="/" className="button">
          {t('waiting.home')}
        </Link>
      </div>
    </div>
  );
}
