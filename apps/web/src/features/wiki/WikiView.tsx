import {
  ADMINISTRATOR_ROLES,
  LANGUAGES,
  type WikiArticle,
  type WikiSaveRequest,
  wikiSaveRequestSchema,
} from '@fanverse/contract';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { hasSomeRole, useSession } from '../../app/session.store.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert, Loader, Panel, ShowMore } from '../../ui/Feedback.tsx';
import { Form, FormError, SelectField, TextField, useZodForm } from '../../ui/Form.tsx';
import { useSearchParamText } from '../../ui/queryParams.ts';
import { WIKI, WikiArticleList, WikiSearchField } from './WikiParts.tsx';

const useIsAdministrator = () => useSession((s) => hasSomeRole(s.user, ADMINISTRATOR_ROLES));

/**
 * The help knowledge base (`?feed=wiki`, `?view=wiki`): articles in the reader's language,
 * searchable; `&article=slug` opens one; administrators write them in Markdown (`&edit=slug|new`).
 */
export function WikiView() {
  const [params] = useSearchParams();
  const admin = useIsAdministrator();
  const edit = params.get('edit');
  const article = params.get('article');
  if (edit && admin) return <WikiEditor slug={edit === 'new' ? null : edit} />;
  if (article) return <WikiArticleView slug={article} />;
  return <WikiIndex />;
}

function WikiIndex() {
  const { t, i18n } = useTranslation('pages');
  const admin = useIsAdministrator();
  const { text, setText, words: q } = useSearchParamText();
  const language = i18n.language === 'es' ? 'es' : 'en';
  const list = useInfiniteQuery({
    queryKey: ['wiki.list', language, q],
    queryFn: ({ pageParam, signal }) => api('wiki.list', { q, lang: language, page: pageParam }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.statistics.hasMore ? last.statistics.page + 1 : undefined),
    placeholderData: keepPreviousData,
  });
  const articles = list.data?.pages.flatMap((page) => page.articles) ?? [];
  return (
    <Panel title={t('wiki.title')} testId="view-wiki">
      <p className="panel__intro">{t('wiki.intro')}</p>
      <div className="wiki__bar">
        <WikiSearchField text={text} onText={setText} testId="wiki-search" />
        {admin && (
          <Link to={`${WIKI}&edit=new`} className="button button--primary" data-testid="wiki-new">
            {t('wiki.new')}
          </Link>
        )}
      </div>
      {list.isPending ? (
        <Loader />
      ) : list.isError ? (
        <Alert>{errorText(list.error)}</Alert>
      ) : articles.length === 0 ? (
        <p className="empty-state" data-testid="wiki-empty">
          {q ? t('wiki.none', { q }) : t('wiki.empty')}
        </p>
      ) : (
        <WikiArticleList articles={articles} testId="wiki-list" itemTestId="wiki-item" />
      )}
      <ShowMore query={list} label={t('wiki.more')} busyLabel={t('wiki.loading')} />
    </Panel>
  );
}

function useArticle(slug: string | null) {
  const { i18n } = useTranslation();
  const language = i18n.language === 'es' ? 'es' : 'en';
  return useQuery({
    queryKey: ['wiki.article', slug, language],
    queryFn: ({ signal }) =>
      api('wiki.article', { lang: language }, { params: { slug: slug ?? '' }, signal }).then(
        (r) => r.article,
      ),
    enabled: !!slug,
    retry: false,
  });
}

function WikiArticleView({ slug }: { slug: string }) {
  const { t, i18n } = useTranslation('pages');
  const admin = useIsAdministrator();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const article = useArticle(slug);
  const remove = useMutation({
    mutationFn: (id: string) => api('wiki.delete', undefined, { params: { id } }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['wiki.list'] });
      navigate(WIKI);
    },
  });
  if (article.isPending) return <Loader />;
  if (article.isError) {
    return (
      <Panel title={t('wiki.title')} testId="view-wiki-article">
        <Alert>{errorText(article.error)}</Alert>
        <Link to={WIKI}>{t('wiki.back')}</Link>
      </Panel>
    );
  }
  const a = article.data;
  return (
    <article className="panel wiki__article" data-testid="view-wiki-article" lang={a.language}>
      <Link to={WIKI} className="wiki__back">
        ← {t('wiki.back')}
      </Link>
      <h1 className="panel__title">{a.title}</h1>
      {a.language !== i18n.language && (
        <p className="wiki__note" data-testid="wiki-untranslated">
          {t('wiki.untranslated')}
        </p>
      )}
      {/* HTML rendered by the server from Markdown with raw HTML escaped and unsafe links refused. */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server (wiki.service.ts) */}
      <div className="wiki__body" dangerouslySetInnerHTML={{ __html: a.html }} data-testid="wiki-body" />
      <p className="wiki__updated">
        {t('wiki.updated', { date: new Date(a.updatedAt).toLocaleDateString(i18n.language) })}
      </p>
      {admin && (
        <div className="button-row">
          <Link to={`${WIKI}&edit=${a.slug}`} className="button" data-testid="wiki-edit">
            {t('wiki.edit')}
          </Link>
          <button
            type="button"
            className="button button--danger"
            onClick={() => setConfirm(true)}
            data-testid="wiki-delete"
          >
            {t('wiki.delete')}
          </button>
        </div>
      )}
      <ConfirmModal
        open={confirm}
        title={t('wiki.deleteTitle')}
        danger
        busy={remove.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() => remove.mutate(a.id)}
      >
        {t('wiki.deleteText', { title: a.title })}
      </ConfirmModal>
    </article>
  );
}

/** Write or rewrite one language of an article (administrators). */
function WikiEditor({ slug }: { slug: string | null }) {
  const existing = useArticle(slug);
  if (slug && existing.isPending) return <Loader />;
  return <WikiForm article={slug && existing.data ? existing.data : null} />;
}

function WikiForm({ article }: { article: WikiArticle | null }) {
  const { t, i18n } = useTranslation('pages');
  const navigate = useNavigate();
  const client = useQueryClient();
  const form = useZodForm(wikiSaveRequestSchema, {
    slug: article?.slug ?? '',
    language: article?.language ?? (i18n.language === 'es' ? 'es' : 'en'),
    title: article?.title ?? '',
    body: article?.body ?? '',
  });
  const save = useMutation({
    mutationFn: (body: WikiSaveRequest) => api('wiki.save', body),
    onSuccess: async (saved) => {
      await client.invalidateQueries({ queryKey: ['wiki.list'] });
      await client.invalidateQueries({ queryKey: ['wiki.article', saved.article.slug] });
      navigate(`${WIKI}&article=${saved.article.slug}`);
    },
  });
  return (
    <Panel
      title={article ? t('wiki.editTitle', { title: article.title }) : t('wiki.new')}
      testId="view-wiki-editor"
    >
      <Form form={form} onSubmit={save.mutateAsync} testId="wiki-form">
        <FormError />
        <TextField name="title" label={t('wiki.fields.title')} required maxLength={150} />
        <TextField
          name="slug"
          label={t('wiki.fields.slug')}
          hint={t('wiki.fields.slugHint')}
          required
          maxLength={80}
        />
        <SelectField name="language" label={t('wiki.fields.language')} required>
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {t(`wiki.languages.${l}`)}
            </option>
          ))}
        </SelectField>
        <TextField
          kind="textarea"
          name="body"
          label={t('wiki.fields.body')}
          hint={t('wiki.fields.bodyHint')}
          required
          rows={14}
        />
        <div className="button-row">
          <button
            type="submit"
            className="button button--primary"
            disabled={save.isPending}
            data-testid="wiki-save"
          >
            {t('wiki.save')}
          </button>
          <Link to={article ? `${WIKI}&article=${article.slug}` : WIKI} className="button">
            {t('wiki.cancel')}
          </Link>
        </div>
      </Form>
    </Panel>
  );
}
