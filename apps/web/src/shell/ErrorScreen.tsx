import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ChunkLoadError, CssChunkError, MissingModuleError } from '../app/lazy.ts';
import type { FatalError } from '../app/ui.store.ts';

export type ErrorKind = NonNullable<FatalError> | 'generic';

/** 'An error has occurred' with a Reload button (spec §8), with the reason when known. */
export function ErrorScreen({ kind }: { kind: ErrorKind }) {
  const { t } = useTranslation('errors');
  return (
    <div className="error-screen" role="alert" data-testid="error-screen" data-error-kind={kind}>
      <h1>{t('screen.title')}</h1>
      <p>{t(`screen.${kind}`)}</p>
      <button
        type="button"
        className="button button--primary"
        onClick={() => window.location.reload()}
        data-testid="reload-button"
      >
        {t('reload')}
      </button>
    </div>
  );
}

export function errorKindOf(error: unknown): ErrorKind {
  if (error instanceof CssChunkError) return 'css';
  if (error instanceof MissingModuleError) return 'module';
  if (error instanceof ChunkLoadError) return 'chunk';
  if (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed/i.test(error.message)
  ) {
    return 'chunk';
  }
  return 'generic';
}

/** The route error element: lazy-chunk failures and render errors. */
export function RouteErrorScreen() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <ErrorScreen kind="generic" />;
  console.error(error);
  return <ErrorScreen kind={errorKindOf(error)} />;
}
