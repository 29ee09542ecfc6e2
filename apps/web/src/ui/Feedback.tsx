import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** An alert with the text of an API error or a success (spec §2 alerts). */
export function Alert({
  children,
  tone = 'error',
  testId = 'alert',
}: {
  children: ReactNode;
  tone?: 'error' | 'success' | 'info';
  testId?: string;
}) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}

/**
 * A loader (spec §2); `page` fills the content area. `skeleton` draws the shape of what is coming
 * (post cards or list rows) instead of a spinner, so the page does not jump when it arrives.
 */
export function Loader({
  page = false,
  label,
  testId = 'loader',
  skeleton,
}: {
  page?: boolean;
  label?: string;
  testId?: string;
  skeleton?: 'cards' | 'rows';
}) {
  const { t } = useTranslation();
  if (skeleton) {
    return (
      <div className={`skeleton skeleton--${skeleton}`} role="status" data-testid={testId}>
        {Array.from({ length: skeleton === 'cards' ? 2 : 4 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders with no identity.
          <div key={i} className="skeleton__item" aria-hidden="true">
            <span className="skeleton__line skeleton__line--short" />
            <span className="skeleton__line" />
            {skeleton === 'cards' && <span className="skeleton__block" />}
          </div>
        ))}
        <span className="sr-only">{label ?? t('loading')}</span>
      </div>
    );
  }
  return (
    <div className={page ? 'loader loader--page' : 'loader'} role="status" data-testid={testId}>
      <span className="spinner" aria-hidden="true" />
      <span className="sr-only">{label ?? t('loading')}</span>
    </div>
  );
}

/** The 'feature coming soon' notice of spec §8, saying what will appear here. */
export function FeatureSoon({ what }: { what?: string }) {
  const { t } = useTranslation();
  return (
    <div className="feature-soon" role="note" data-testid="feature-soon">
      <strong className="feature-soon__title">{t('featureSoon.title')}</strong>
      {what && <p>{what}</p>}
    </div>
  );
}

/** A titled content panel, e.g. a home view that later issues fill. */
export function Panel({
  title,
  children,
  testId,
  headingLevel = 1,
}: {
  title: string;
  children?: ReactNode;
  testId?: string;
  headingLevel?: 1 | 2;
}) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section className="panel" data-testid={testId}>
      <Heading className="panel__title">{title}</Heading>
      {children}
    </section>
  );
}

/** "Show more" under a paged list (spec §3: later pages append). */
export function ShowMore({
  query,
  label,
  busyLabel,
  testId,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  label: string;
  busyLabel: string;
  testId?: string;
}) {
  if (!query.hasNextPage) return null;
  return (
    <button
      type="button"
      className="button show-more"
      disabled={query.isFetchingNextPage}
      onClick={() => void query.fetchNextPage()}
      data-testid={testId}
    >
      {query.isFetchingNextPage ? busyLabel : label}
    </button>
  );
}
