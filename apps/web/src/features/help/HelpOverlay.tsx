import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useUi } from '../../app/ui.store.ts';
import { ContactForm } from '../../ui/ContactForm.tsx';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { WIKI, WikiArticleList, WikiSearchField } from '../wiki/WikiParts.tsx';
import './help.css';

/** Articles the overlay lists (the full list and its paging live on `?feed=wiki`). */
const HELP_OVERLAY_ARTICLES = 6;

/**
 * The help and support overlay (spec §2 "help/support"): the help articles with a search, links to
 * the FAQ and support pages, and the contact form (POST /contact, kind "contact") for the team.
 */
export function HelpOverlay({ open }: { open: boolean }) {
  const { t } = useTranslation('pages');
  const screen = useUi((s) => s.screen);
  const setHelpOpen = useUi((s) => s.setHelpOpen);
  const close = () => setHelpOpen(false);
  const [tab, setTab] = useState<'articles' | 'contact'>('articles');
  const id = useId();
  return (
    <Modal
      open={open}
      onClose={close}
      title={t('helpOverlay.title')}
      variant={screen === 'mobile' ? 'sheet' : 'dialog'}
      testId="help-overlay"
      className="help-overlay"
    >
      <div className="segmented help-overlay__tabs" role="tablist" aria-label={t('helpOverlay.title')}>
        {(['articles', 'contact'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            id={`${id}-${name}`}
            aria-controls={`${id}-panel`}
            className={`segmented__item${tab === name ? ' is-active' : ''}`}
            onClick={() => setTab(name)}
            data-testid={`help-tab-${name}`}
          >
            {t(`helpOverlay.tabs.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${tab}`}>
        {tab === 'articles' ? <Articles onOpen={close} /> : <ContactForm kind="contact" />}
      </div>
    </Modal>
  );
}

function Articles({ onOpen }: { onOpen: () => void }) {
  const { t, i18n } = useTranslation('pages');
  const [text, setText] = useState('');
  const q = useDeferredValue(text.trim());
  const language = i18n.language === 'es' ? 'es' : 'en';
  const list = useQuery({
    queryKey: ['wiki.list', language, q, HELP_OVERLAY_ARTICLES],
    queryFn: ({ signal }) =>
      api('wiki.list', { q, lang: language, limit: HELP_OVERLAY_ARTICLES }, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="help-overlay__articles">
      <WikiSearchField text={text} onText={setText} testId="help-search" />
      {list.isPending ? (
        <Loader />
      ) : list.isError ? (
        <Alert>{errorText(list.error)}</Alert>
      ) : list.data.articles.length === 0 ? (
        <p className="empty-state" data-testid="help-empty">
          {q ? t('wiki.none', { q }) : t('wiki.empty')}
        </p>
      ) : (
        <WikiArticleList
          articles={list.data.articles}
          testId="help-articles"
          itemTestId="help-article"
          onOpen={onOpen}
        />
      )}
      <p className="button-row help-overlay__links">
        <Link to={WIKI} className="button" onClick={onOpen} data-testid="help-all-articles">
          {t('helpOverlay.allArticles')}
        </Link>
        <Link to="/help" className="button" onClick={onOpen}>
          {t('faq.title')}
        </Link>
        <Link to="/support" className="button" onClick={onOpen}>
          {t('support.title')}
        </Link>
      </p>
    </div>
  );
}
