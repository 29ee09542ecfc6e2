import type { WikiSummary } from '@fanverse/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The help articles' feed (`?feed=wiki`). */
export const WIKI = '/?feed=wiki';

/** The article search box of `?feed=wiki` and the help overlay. */
export function WikiSearchField({
  text,
  onText,
  testId,
}: {
  text: string;
  onText: (text: string) => void;
  testId: string;
}) {
  const { t } = useTranslation('pages');
  const id = useId();
  return (
    <form className="wiki__search" onSubmit={(e) => e.preventDefault()}>
      <label htmlFor={id} className="sr-only">
        {t('wiki.search')}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        maxLength={100}
        placeholder={t('wiki.search')}
        onChange={(e) => onText(e.target.value)}
        data-testid={testId}
      />
    </form>
  );
}

/** Articles as links to `?feed=wiki&article=slug`: title and first words. */
export function WikiArticleList({
  articles,
  testId,
  itemTestId,
  onOpen,
}: {
  articles: WikiSummary[];
  testId: string;
  itemTestId: string;
  onOpen?: () => void;
}) {
  return (
    <ul className="wiki__list" data-testid={testId}>
      {articles.map((a) => (
        <li key={a.id}>
          <Link
            to={`${WIKI}&article=${a.slug}`}
            className="wiki__item"
            onClick={onOpen}
            data-testid={itemTestId}
          >
            <strong>{a.title}</strong>
            <span>{a.excerpt}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
