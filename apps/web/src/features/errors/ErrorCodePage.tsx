import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import NotFoundPage from './NotFoundPage.tsx';
import { ServerError } from './ServerError.tsx';

/** Codes of /error/{error} with their own texts; any other code gets the generic error page. */
export const ERROR_PAGE_CODES = ['404', '500', '403', 'offline', 'session'] as const;

/** /error/{error}: 404 and 500 pages, a few named codes, and a generic page for the rest. */
export default function ErrorCodePage() {
  const { error = '' } = useParams();
  const { t } = useTranslation('errors');
  if (error === '404') return <NotFoundPage />;
  if (error === '500') return <ServerError />;
  const known = (ERROR_PAGE_CODES as readonly string[]).includes(error);
  return (
    <section className="error-page" data-testid="error-code-page" data-error-code={error}>
      <h1>{t(known ? `codes.${error}.title` : 'codes.generic.title')}</h1>
      <p>{t(known ? `codes.${error}.body` : 'codes.generic.body', { code: error })}</p>
      <div className="button-row">
        <button
          type="button"
          className="button button--primary"
          onClick={() => window.location.reload()}
          data-testid="reload-button"
        >
          {t('reload')}
        </button>
        <Link to="/" className="button">
          {t('goHome')}
        </Link>
      </div>
    </section>
  );
}
