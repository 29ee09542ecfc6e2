import { useTranslation } from 'react-i18next';
import { FeatureSoon } from '../../ui/Feedback.tsx';
import { TextPage } from '../../ui/TextPage.tsx';

export default function WatchPage() {
  const { t } = useTranslation('pages');
  return (
    <TextPage ns="pages" k="watch" testId="watch-page">
      <FeatureSoon what={t('watch.soon')} />
    </TextPage>
  );
}
