import { useTranslation } from 'react-i18next';
import { FeatureSoon, Panel } from '../../ui/Feedback.tsx';

const STEPS = ['profile', 'terms', 'photos', 'approval'] as const;

/** /user/creator: the creator application (four steps, spec §2); filled by the apply feature. */
export default function CreatorApplyPage() {
  const { t } = useTranslation('home');
  return (
    <Panel title={t('apply.title')} testId="creator-apply">
      <ol className="steps">
        {STEPS.map((step) => (
          <li key={step}>{t(`apply.steps.${step}`)}</li>
        ))}
      </ol>
      <FeatureSoon what={t('apply.what')} />
    </Panel>
  );
}
