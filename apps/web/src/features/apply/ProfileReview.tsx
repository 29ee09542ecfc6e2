import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { isCreator, useSession } from '../../app/session.store.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { APPLY_STATE_KEY } from './applySteps.ts';
import { WaitingStep } from './WaitingStep.tsx';
import './apply.css';

/**
 * `?profile=review` (spec §2 overlays): where the team's review of your profile stands — the creator
 * application and identity check: not sent yet, waiting (24–72 h), approved, or not approved with
 * the reason and a way to send it again.
 */
export function ProfileReview() {
  const { t } = useTranslation('apply');
  const navigate = useNavigate();
  const creator = useSession((s) => isCreator(s.user));
  const query = useQuery({ queryKey: APPLY_STATE_KEY, queryFn: () => api('creator.applyState') });
  if (query.isPending) return <Loader />;
  if (query.isError) return <Alert>{errorText(query.error)}</Alert>;
  const state = query.data;
  // Creators made by staff (or the demo data) never sent an application: their profile stands approved.
  if (creator && state.status !== 'rejected' && state.status !== 'pending') {
    return (
      <div
        className="apply-result apply-result--accepted"
        data-testid="profile-review"
        data-status="accepted"
      >
        <h2>{t('accepted.title')}</h2>
        <p>{t('review.creatorBody')}</p>
      </div>
    );
  }
  if (state.status === 'draft' || !state.submittedAt) {
    return (
      <div className="apply-result" data-testid="profile-review" data-status="none">
        <h2>{t('review.noneTitle')}</h2>
        <p>{t('review.noneBody')}</p>
        <Link to="/user/creator" className="button button--primary" data-testid="profile-review-apply">
          {t('title')}
        </Link>
      </div>
    );
  }
  return (
    <div data-testid="profile-review" data-status={state.status}>
      <WaitingStep state={state} onResend={() => navigate('/user/creator')} />
    </div>
  );
}
