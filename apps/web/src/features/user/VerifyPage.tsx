import { useTranslation } from 'react-i18next';
import { FeatureSoon, Panel } from '../../ui/Feedback.tsx';

/** /user/verify: identity verification with three photos (spec §3); filled by the verify feature. */
export default function VerifyPage() {
  const { t } = useTranslation('home');
  return (
    <Panel title={t('verify.title')} testId="verify">
      <p>{t('verify.intro')}</p>
      <FeatureSoon what={t('verify.what')} />
    </Panel>
  );
}
