import { useTranslation } from 'react-i18next';

/** 500 (spec §8): 'Sorry - Server error - An error has been found on the application server.' */
export function ServerError() {
  const { t } = useTranslation('errors');
  return (
    <section className="error-page" data-testid="server-error-page">
      <p className="error-page__code" aria-hidden="true">
        500
      </p>
      <h1>
        {t('serverError.sorry')} - {t('serverError.title')}
      </h1>
      <p data-testid="server-error-text">
        {t('serverError.sorry')} - {t('serverError.title')} - {t('serverError.body')}
      </p>
      <button
        type="button"
        className="button button--primary"
        onClick={() => window.location.reload()}
        data-testid="reload-button"
      >
        {t('reload')}
      </button>
    </section>
  );
}
