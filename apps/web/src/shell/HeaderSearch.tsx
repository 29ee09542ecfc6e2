import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../app/api.ts';
import { useUi } from '../app/ui.store.ts';
import { Avatar } from '../features/feed/Author.tsx';
import { Icon } from './icons.tsx';

/** Waits this long after the last key before asking for suggestions. */
const SUGGEST_DELAY_MS = 200;

/** Where a search for `word` shows its creators and posts. */
export const explorePath = (word: string) =>
  word ? `/?explore=1&q=${encodeURIComponent(word)}` : '/?explore=1';

/**
 * The header's search field (every width; on phones it opens over the header from a button): a
 * combobox suggesting creators while the person types (search.suggest, typo-tolerant), with a last
 * option that opens Explore with every creator and post found. Arrow keys move, Enter picks, Escape
 * closes.
 */
export function HeaderSearch() {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const mobile = useUi((s) => s.screen) === 'mobile';
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(!mobile);
  const [text, setText] = useState('');
  const [word, setWord] = useState('');
  const [listOpen, setListOpen] = useState(false);
  const [active, setActive] = useState(-1);
  useEffect(() => setOpen(!mobile), [mobile]);
  useEffect(() => {
    const timer = setTimeout(() => setWord(text.trim()), SUGGEST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const suggest = useQuery({
    queryKey: ['search.suggest', word],
    queryFn: ({ signal }) => api('search.suggest', { q: word }, { signal }),
    enabled: word.length > 0,
    staleTime: 30_000,
  });
  const creators = word && suggest.data?.word === word ? suggest.data.creators : [];
  const options = [
    ...creators.map((c) => ({ key: c.user, to: `/${c.user}` })),
    { key: '', to: explorePath(text.trim()) },
  ];
  const showList = listOpen && text.trim().length > 0;

  const go = (to: string) => {
    setListOpen(false);
    setActive(-1);
    setText('');
    if (mobile) setOpen(false);
    navigate(to);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setListOpen(true);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => {
        const next = i + step;
        return next >= options.length ? -1 : next < -1 ? options.length - 1 : next;
      });
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const picked = options[active];
      if (picked) go(picked.to);
      else if (text.trim()) go(explorePath(text.trim()));
    } else if (e.key === 'Escape') {
      if (listOpen) setListOpen(false);
      else if (mobile) setOpen(false);
    }
  };

  if (!open) {
    return (
      <button
        type="button"
        className="icon-button"
        onClick={() => {
          setOpen(true);
          setTimeout(() => input.current?.focus(), 0);
        }}
        aria-label={t('search.open')}
        data-testid="header-search-button"
      >
        <Icon name="explore" />
      </button>
    );
  }
  return (
    <div className={`header-search${mobile ? ' header-search--overlay' : ''}`} data-testid="header-search">
      <label htmlFor={`${id}-input`} className="sr-only">
        {t('search.label')}
      </label>
      <input
        ref={input}
        id={`${id}-input`}
        type="search"
        role="combobox"
        aria-expanded={showList}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? `${id}-opt-${active}` : undefined}
        autoComplete="off"
        maxLength={60}
        value={text}
        placeholder={t('search.placeholder')}
        onChange={(e) => {
          setText(e.target.value);
          setListOpen(true);
          setActive(-1);
        }}
        onFocus={() => setListOpen(true)}
        onBlur={() => setTimeout(() => setListOpen(false), 150)}
        onKeyDown={onKeyDown}
        className="header-search__input"
        data-testid="header-search-input"
      />
      {mobile && (
        <button
          type="button"
          className="icon-button"
          onClick={() => setOpen(false)}
          aria-label={t('search.close')}
          data-testid="header-search-close"
        >
          <Icon name="back" />
        </button>
      )}
      {showList && (
        <div
          id={`${id}-list`}
          role="listbox"
          aria-label={t('search.suggestions')}
          className="header-search__list"
        >
          {creators.map((c, i) => (
            <div
              key={c.user}
              id={`${id}-opt-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={active === i}
              className="header-search__option"
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => go(`/${c.user}`)}
              onKeyDown={() => {}}
              data-testid="header-search-suggestion"
            >
              <Avatar user={c} size="small" />
              <span className="header-search__name">{c.name}</span>
              <span className="header-search__handle">@{c.user}</span>
            </div>
          ))}
          <div
            id={`${id}-opt-${creators.length}`}
            role="option"
            tabIndex={-1}
            aria-selected={active === creators.length}
            className="header-search__option header-search__all"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => go(explorePath(text.trim()))}
            onKeyDown={() => {}}
            data-testid="header-search-all"
          >
            {t('search.all', { word: text.trim() })}
          </div>
        </div>
      )}
    </div>
  );
}
