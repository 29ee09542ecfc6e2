import type { PageStatistics } from '@fanverse/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useInstantFormat } from '../../app/dates.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { usePatchQuery } from '../../ui/queryParams.ts';

/** Filter, search and page of an admin list, kept in the query so Back and links work. */
export function useListParams<S extends string>(statuses: readonly S[], fallback: S) {
  const [params] = useSearchParams();
  const raw = params.get('status');
  const status = (statuses as readonly string[]).includes(raw ?? '') ? (raw as S) : fallback;
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const patchQuery = usePatchQuery();
  const update = (patch: { status?: S; q?: string; page?: number }) =>
    // A new filter or search starts on page 1.
    patchQuery(
      {
        ...(patch.status !== undefined && { status: patch.status }),
        ...(patch.q !== undefined && { q: patch.q }),
        page: patch.page && patch.page > 1 ? String(patch.page) : undefined,
      },
      { push: true },
    );
  return { status, q, page, update };
}

/** Status tabs of an admin list (buttons with aria-pressed; the list below follows them). */
export function FilterTabs<S extends string>({
  label,
  options,
  value,
  onChange,
  text,
  testId,
}: {
  label: string;
  options: readonly S[];
  value: S;
  onChange: (value: S) => void;
  text: (value: S) => string;
  testId: string;
}) {
  return (
    <fieldset className="tabs fieldset-plain">
      <legend className="sr-only">{label}</legend>
      {options.map((option) => (
        <button
          key={option}
          type="button"
          className={`tab${option === value ? ' tab--active' : ''}`}
          aria-pressed={option === value}
          onClick={() => onChange(option)}
          data-testid={`${testId}-${option}`}
        >
          {text(option)}
        </button>
      ))}
    </fieldset>
  );
}

/** A search box that applies on submit (Enter or the button). */
export function SearchForm({
  value,
  onSearch,
  label,
  testId,
}: {
  value: string;
  onSearch: (q: string) => void;
  label: string;
  testId: string;
}) {
  const { t } = useTranslation('admin');
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form className="admin-search" onSubmit={onSubmit}>
      <label className="sr-only" htmlFor={`${testId}-input`}>
        {label}
      </label>
      <input
        id={`${testId}-input`}
        type="search"
        value={text}
        maxLength={60}
        placeholder={label}
        onChange={(event) => setText(event.target.value)}
        data-testid={testId}
      />
      <button type="submit" className="button">
        {t('search')}
      </button>
    </form>
  );
}

/** Previous / next with "page x of y" and the total (spec §3 paged list statistics). */
export function Pager({
  statistics,
  onPage,
  busy,
}: {
  statistics: PageStatistics;
  onPage: (page: number) => void;
  busy?: boolean;
}) {
  const { t } = useTranslation('admin');
  const pages = Math.max(1, Math.ceil(statistics.total / statistics.limit));
  return (
    <nav className="admin-pager" aria-label={t('pager.label')} data-testid="admin-pager">
      <button
        type="button"
        className="button button--small"
        disabled={statistics.page <= 1 || busy}
        onClick={() => onPage(statistics.page - 1)}
        data-testid="pager-prev"
      >
        {t('pager.prev')}
      </button>
      <span aria-live="polite">
        {t('pager.status', { page: statistics.page, pages, total: statistics.total })}
      </span>
      <button
        type="button"
        className="button button--small"
        disabled={!statistics.hasMore || busy}
        onClick={() => onPage(statistics.page + 1)}
        data-testid="pager-next"
      >
        {t('pager.next')}
      </button>
    </nav>
  );
}

/** Reloads the session counters (the badges) after a decision changed a queue. */
export function refreshCounters(): void {
  api('report.connection', { time: Date.now() })
    .then(({ counter }) => useSession.getState().setCounters(counter))
    .catch(() => undefined);
}

/** Dates of admin lists: the platform time zone, as everywhere (app/dates.ts). */
export function useDateFormat(withTime = true) {
  return useInstantFormat(withTime);
}

/** A person's initial as an avatar placeholder. */
export function Initial({ name }: { name: string }) {
  return (
    <span className="avatar avatar--initial" aria-hidden="true">
      {name.charAt(0).toUpperCase()}
    </span>
  );
}

/**
 * The states every admin list shares: the last action's notice, loading, error and empty; the
 * list itself renders from the loaded data.
 */
export function AdminListState<T extends { items: readonly unknown[]; statistics: PageStatistics }>({
  query,
  notice,
  empty,
  onPage,
  children,
}: {
  query: UseQueryResult<T>;
  notice: string | null;
  empty: string;
  /** Opens another page of the list; the pager follows the list. */
  onPage: (page: number) => void;
  children: (data: T) => ReactNode;
}) {
  return (
    <>
      {notice && (
        <Alert tone="success" testId="admin-notice">
          {notice}
        </Alert>
      )}
      {query.isPending ? (
        <Loader />
      ) : query.isError ? (
        <Alert>{errorText(query.error)}</Alert>
      ) : query.data.items.length === 0 ? (
        <p className="admin-empty" data-testid="admin-empty">
          {empty}
        </p>
      ) : (
        <>
          {children(query.data)}
          <Pager statistics={query.data.statistics} onPage={onPage} busy={query.isFetching} />
        </>
      )}
    </>
  );
}

/** A person's roles as chips, named in the reader's language (unknown roles as they are). */
export function RoleChips({ roles }: { roles: readonly string[] }) {
  const { t, i18n } = useTranslation('admin');
  return (
    <>
      {roles.map((role) => (
        <span key={role} className="admin-chip" data-role={role}>
          {i18n.exists(`admin:users.roleNames.${role}`) ? t(`users.roleNames.${role}`) : role}
        </span>
      ))}
    </>
  );
}
