import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** 404 (spec §8): 'Sorry - Page not found - The link you followed may be broken…'. */
export default function NotFoundPage() {
  const { t } = useTranslation('errors');
  return (
    <section className="error-page" data-testid="not-found-page">
      <p className="error-page__code" aria-hidden="true">
        404
      </p>
      <h1>
        {t('notFound.sorry')} - {t('notFound.title')}
      </h1>
      <p data-testid="not-found-text">
        {t('notFound.sorry')} - {t('notFound.title')} - {t('notFound.body')}
      </p>
      <Link to="/" className="button button--primary">
        {t('goHome')}
      </Link>
    </section>
  );
}
