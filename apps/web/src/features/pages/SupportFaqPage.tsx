import { useTranslation } from 'react-i18next';
import { Faq } from './Faq.tsx';

export default function SupportFaqPage() {
  const { t } = useTranslation('pages');
  return (
    <div className="text-page" data-testid="support-faq">
      <h1>{t('faq.title')}</h1>
      <Faq />
    </div>
  );
}
