import { applyRequestSchema } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../app/api.ts';
import { CheckField, Form, FormError, useZodFormOf } from '../../ui/Form.tsx';
import { APPLY_STATE_KEY } from './applySteps.ts';
import { StepActions } from './StepActions.tsx';

const TERMS = ['share', 'content', 'consent', 'payouts', 'conduct'] as const;

/** Step 2: the creator terms and the required checkbox (spec §5). */
export function TermsStep({ onDone, onBack }: { onDone: () => void; onBack: () => void }) {
  const { t } = useTranslation('apply');
  const client = useQueryClient();
  const form = useZodFormOf(applyRequestSchema, { acceptCreatorTerms: false }, (values) => ({
    step: '2',
    acceptCreatorTerms: values.acceptCreatorTerms ? true : undefined,
  }));
  const save = useMutation({
    mutationFn: () => api('creator.apply', { step: '2', acceptCreatorTerms: true }),
    onSuccess: (next) => {
      client.setQueryData(APPLY_STATE_KEY, next);
      onDone();
    },
  });

  return (
    <Form form={form} onSubmit={() => save.mutateAsync()} className="form apply-form" testId="apply-step-2">
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
      <FormError />
      <div data-testid="apply-terms">
        <CheckField name="acceptCreatorTerms" label={t('terms.accept')} hint={t('terms.accept')} />
      </div>
      <StepActions
        onBack={onBack}
        busy={save.isPending}
        label={t('next')}
        busyLabel={t('saving')}
        testId="apply-next"
      />
    </Form>
  );
}
