import {
  CATEGORY_TAGS,
  type CategoryTag,
  DIRECTORY_ROLES,
  DIRECTORY_SORTS,
  type DirectoryEntry,
  PAGE_LIMITS,
} from '@fanverse/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader, Panel, ShowMore } from '../../ui/Feedback.tsx';
import { useSearchParamText, useSetQueryParam } from '../../ui/queryParams.ts';
import { Switch } from '../../ui/Switch.tsx';
import { Avatar } from '../feed/Author.tsx';

type Kind = 'creator' | 'user';

const oneOf = <T extends string>(list: readonly T[], value: string | null, fallback: T): T =>
  value !== null && (list as readonly string[]).includes(value) ? (value as T) : fallback;

/** The filters of a directory, kept in the address so a filtered list can be shared or reloaded. */
function useDirectoryParams() {
  const [params] = useSearchParams();
  const filters = {
    q: (params.get('q') ?? '').trim(),
    sort: oneOf(DIRECTORY_SORTS, params.get('sort'), 'popular'),
    tag: oneOf<CategoryTag | ''>(CATEGORY_TAGS, params.get('tag'), ''),
    role: oneOf(DIRECTORY_ROLES, params.get('role'), 'all'),
    online: params.get('online') === '1',
  };
  const set = useSetQueryParam();
  return { filters, set };
}

/** A labelled drop-down of the directory's filters: [value, label] options. */
function Choice(props: {
  label: string;
  value: string;
  options: [string, string][];
  onChange: (value: string) => void;
  testId: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="directory__field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      >
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

function DirectoryCard({ person }: { person: DirectoryEntry }) {
  const { t } = useTranslation('content');
  return (
    <li>
      <Link
        to={`/${person.user}`}
        className="directory-card"
        data-testid="directory-person"
        data-user={person.user}
      >
        <Avatar user={person} size="large" showOnline />
        <span className="directory-card__text">
          <span className="creator-card__name">{person.name || person.user}</span>
          <span className="creator-card__handle">@{person.user}</span>
          <span className="directory-card__meta">
            {person.isCreator && <span className="badge">{t('directory.creatorBadge')}</span>}
            {person.isCreator && t('directory.followers', { count: person.followers })}
          </span>
        </span>
      </Link>
    </li>
  );
}

/**
 * The people directories of spec §2: `?view=creator` (creators, open to visitors like Explore)
 * and `?view=user` (fans and creators, members only). Typo-tolerant search, filters (category or
 * kind of person, online now), order, and 30 a page with "Show more" (page 1 replaces, later
 * pages append, spec §3).
 */
export function DirectoryView({ kind }: { kind: Kind }) {
  const { t } = useTranslation('content');
  const id = useId();
  const { filters, set } = useDirectoryParams();
  const { text, setText } = useSearchParamText();

  const query = useInfiniteQuery({
    queryKey: ['directory', kind, filters],
    queryFn: ({ pageParam, signal }) => {
      const common = {
        q: filters.q,
        sort: filters.sort,
        online: filters.online ? '1' : undefined,
        page: pageParam,
        limit: PAGE_LIMITS.search,
      } as const;
      return kind === 'creator'
        ? api('directory.creators', { ...common, tag: filters.tag || undefined }, { signal })
        : api('directory.users', { ...common, role: filters.role }, { signal });
    },
    initialPageParam: 1,
    getNextPageParam: (last) => (last.statistics.hasMore ? last.statistics.page + 1 : undefined),
  });
  const people = query.data?.pages.flatMap((page) => page.items) ?? [];
  const total = query.data?.pages[0]?.statistics.total ?? 0;

  return (
    <Panel title={t(`directory.${kind}.title`)} testId={`view-${kind}`}>
      <p className="panel__intro">{t(`directory.${kind}.intro`)}</p>
      <form
        className="directory__filters"
        onSubmit={(e) => e.preventDefault()}
        data-testid="directory-filters"
      >
        <div className="directory__field directory__field--search">
          <label htmlFor={`${id}-q`}>{t('directory.search')}</label>
          <input
            id={`${id}-q`}
            type="search"
            value={text}
            maxLength={60}
            onChange={(e) => setText(e.target.value)}
            placeholder={t(`directory.${kind}.placeholder`)}
            data-testid="directory-search"
          />
        </div>
        {kind === 'creator' ? (
          <Choice
            label={t('directory.category')}
            value={filters.tag}
            options={[
              ['', t('directory.allCategories')],
              ...CATEGORY_TAGS.map((tag): [string, string] => [tag, t(`categories.${tag}`)]),
            ]}
            onChange={(value) => set('tag', value)}
            testId="directory-tag"
          />
        ) : (
          <Choice
            label={t('directory.role')}
            value={filters.role}
            options={DIRECTORY_ROLES.map((role): [string, string] => [role, t(`directory.roles.${role}`)])}
            onChange={(value) => set('role', value === 'all' ? '' : value)}
            testId="directory-role"
          />
        )}
        <Choice
          label={t('directory.sort')}
          value={filters.sort}
          disabled={!!filters.q}
          options={DIRECTORY_SORTS.map((sort): [string, string] => [sort, t(`directory.sorts.${sort}`)])}
          onChange={(value) => set('sort', value === 'popular' ? '' : value)}
          testId="directory-sort"
        />
        <div className="directory__field directory__field--switch">
          <Switch
            label={t('directory.online')}
            checked={filters.online}
            onChange={(on) => set('online', on ? '1' : '')}
            testId="directory-online"
          />
        </div>
      </form>
      {query.isPending ? (
        <Loader />
      ) : query.isError ? (
        <Alert>{errorText(query.error)}</Alert>
      ) : (
        <>
          <p className="directory__total" aria-live="polite" data-testid="directory-total">
            {t('directory.total', { count: total })}
          </p>
          {people.length === 0 ? (
            <p className="empty-state" data-testid="directory-empty">
              {t('directory.empty')}
            </p>
          ) : (
            <ul className="directory__list" data-testid="directory-list">
              {people.map((person) => (
                <DirectoryCard key={person._id} person={person} />
              ))}
            </ul>
          )}
          <ShowMore
            query={query}
            label={t('directory.more')}
            busyLabel={t('directory.loading')}
            testId="directory-more"
          />
        </>
      )}
    </Panel>
  );
}
