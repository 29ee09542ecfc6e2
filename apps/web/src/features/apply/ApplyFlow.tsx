import { type ApplyState, errorMessage } from '@fanverse/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { isCreator, useSession } from '../../app/session.store.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import {
  APPLY_STATE_KEY,
  APPLY_STEPS,
  type ApplyStep,
  canOpenStep,
  currentStep,
  verifyStep,
} from './applySteps.ts';
import { PhotosStep } from './PhotosStep.tsx';
import { ProfileStep } from './ProfileStep.tsx';
import { TermsStep } from './TermsStep.tsx';
import { WaitingStep } from './WaitingStep.tsx';
import './apply.css';
import { useFeature } from '../../app/features.ts';

/** The four-step creator application (spec §2), opened at /user/creator or, for the photos, /user/verify. */
export function ApplyFlow({ entry }: { entry: 'creator' | 'verify' }) {
  const { t } = useTranslation('apply');
  const user = useSession((s) => s.user);
  const language = useSession((s) => s.language);
  const applicationsOn = useFeature('creatorApplications');
  const query = useQuery({ queryKey: APPLY_STATE_KEY, queryFn: () => api('creator.applyState') });
  const [step, setStep] = useState<ApplyStep | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const state = query.data;
  const shown: ApplyStep | null = state
    ? (step ?? (entry === 'verify' ? verifyStep(state) : currentStep(state)))
    : null;
  useAcceptedRefresh(state);

  const go = (next: ApplyStep) => {
    setStep(next);
    // Move focus to the step heading so screen readers hear the new step.
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  return (
    <section className="panel apply" data-testid={entry === 'verify' ? 'verify' : 'creator-apply'}>
      <h1 className="panel__title" ref={headingRef} tabIndex={-1}>
        {entry === 'verify' ? t('verifyTitle') : t('title')}
      </h1>
      {query.isPending ? (
        <Loader />
      ) : query.isError ? (
        <Alert>{errorText(query.error)}</Alert>
      ) : state && shown ? (
        <>
          {isCreator(user) && state.status !== 'accepted' && <Alert tone="info">{t('alreadyCreator')}</Alert>}
          <StepIndicator state={state} step={shown} onOpen={go} />
          {!applicationsOn && shown !== 4 ? (
            // A super paused applications; one already sent keeps its waiting step.
            <Alert tone="info" testId="apply-paused">
              {errorMessage('APPLICATIONS_PAUSED', language)}
            </Alert>
          ) : (
            <>
              {shown === 1 && <ProfileStep state={state} onDone={(next) => go(currentStep(next))} />}
              {shown === 2 && <TermsStep onDone={() => go(3)} onBack={() => go(1)} />}
              {shown === 3 && <PhotosStep state={state} onDone={() => go(4)} onBack={() => go(2)} />}
              {shown === 4 && <WaitingStep state={state} onResend={() => go(3)} />}
            </>
          )}
        </>
      ) : null}
      <p className="muted apply__help">
        {t('help')} <Link to="/help">{t('helpLink')}</Link>
      </p>
    </section>
  );
}

/** Once accepted, the session learns the creator role (so /post/create opens). */
function useAcceptedRefresh(state: ApplyState | undefined) {
  const setProfile = useSession((s) => s.setProfile);
  const hasRole = useSession((s) => isCreator(s.user));
  const client = useQueryClient();
  const accepted = state?.status === 'accepted';
  useEffect(() => {
    if (!accepted || hasRole) return;
    api('user.profile')
      .then((profile) => {
        setProfile(profile);
        client.setQueryData(['user.profile'], profile);
      })
      .catch(() => undefined);
  }, [accepted, hasRole, setProfile, client]);
}

function StepIndicator({
  state,
  step,
  onOpen,
}: {
  state: ApplyState;
  step: ApplyStep;
  onOpen: (step: ApplyStep) => void;
}) {
  const { t } = useTranslation('apply');
  const done: Record<ApplyStep, boolean> = {
    1: state.step1,
    2: state.step2,
    3: state.step3,
    4: state.status === 'accepted',
  };
  return (
    <nav aria-label={t('steps.label')}>
      <ol className="apply-steps" data-testid="apply-steps">
        {APPLY_STEPS.map((n) => {
          const current = n === step;
          const open = !current && canOpenStep(state, n);
          const label = (
            <>
              <span className="apply-steps__number" aria-hidden="true">
                {done[n] && !current ? '✓' : n}
              </span>
              <span className="apply-steps__label">
                <span className="sr-only">{t('steps.of', { n, total: APPLY_STEPS.length })} </span>
                {t(`steps.${n}`)}
                {done[n] && <span className="sr-only"> ({t('steps.done')})</span>}
              </span>
            </>
          );
          return (
            <li
              key={n}
              className={`apply-steps__item${current ? ' is-current' : ''}${done[n] ? ' is-done' : ''}`}
              aria-current={current ? 'step' : undefined}
              data-testid={`apply-indicator-${n}`}
            >
              {open ? (
                <button type="button" className="apply-steps__button" onClick={() => onOpen(n)}>
                  {label}
                </button>
              ) : (
                <span className="apply-steps__button">{label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
