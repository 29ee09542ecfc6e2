import { useTranslation } from 'react-i18next';
import { FeatureSoon } from '../../ui/Feedback.tsx';

export default function AdminProductsPage() {
  const { t } = useTranslation('home');
  return (
    <div data-testid="admin-products">
      <h2>{t('dashboard.products')}</h2>
      <FeatureSoon what={t('dashboard.productsWhat')} />
    </div>
  );
}
