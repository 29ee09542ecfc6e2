import { applyRequestSchema } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { CheckboxField } from '../../ui/Field.tsx';
import { validateWith } from '../../ui/formErrors.ts';
import { APPLY_STATE_KEY } from './applySteps.ts';
import { StepActions } from './StepActions.tsx';

const TERMS = ['share', 'content', 'consent', 'payouts', 'conduct'] as const;

/** Step 2: the creator terms and the required checkbox (spec §5). */
export function TermsStep({ onDone, onBack }: { onDone: () => void; onBack: () => void }) {
  const { t } = useTranslation('apply');
  const language = useSession((s) => s.language);
  const client = useQueryClient();
  const [accepted, setAccepted] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: () => api('creator.apply', { step: '2', acceptCreatorTerms: true }),
    onSuccess: (next) => {
      client.setQueryData(APPLY_STATE_KEY, next);
      onDone();
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateWith(
      applyRequestSchema,
      { step: '2', acceptCreatorTerms: accepted ? true : undefined },
      language,
    );
    if (!result.ok) {
      setError(result.errors.acceptCreatorTerms ?? Object.values(result.errors)[0]);
      return;
    }
    save.mutate();
  };

  return (
    <form className="form apply-form" onSubmit={onSubmit} noValidate data-testid="apply-step-2">
      <h2>{t('terms.title')}</h2>
      <section className="apply-terms" data-testid="apply-terms-text" aria-label={t('terms.title')}>
        <p>{t('terms.intro')}</p>
        <ol>
          {TERMS.map((key) => (
            <li key={key}>{t(`terms.items.${key}`)}</li>
          ))}
        </ol>
        <p>
          {t('terms.full')} <Link to="/terms">{t('terms.link')}</Link>
        </p>
      </section>
      {save.isError && <Alert>{errorText(save.error)}</Alert>}
      <div data-testid="apply-terms">
        <CheckboxField
          name="acceptCreatorTerms"
          label={t('terms.accept')}
          hint={t('terms.accept')}
          checked={accepted}
          onChange={(checked) => {
            setAccepted(checked);
            setError(undefined);
          }}
          error={error}
        />
      </div>
      <StepActions
        onBack={onBack}
        busy={save.isPending}
        label={t('next')}
        busyLabel={t('saving')}
        testId="apply-next"
      />
    </form>
  );
}
