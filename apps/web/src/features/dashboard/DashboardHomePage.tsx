import { useTranslation } from 'react-i18next';
import { FeatureSoon } from '../../ui/Feedback.tsx';

export default function DashboardHomePage() {
  const { t } = useTranslation('home');
  return <FeatureSoon what={t('dashboard.homeWhat')} />;
}
