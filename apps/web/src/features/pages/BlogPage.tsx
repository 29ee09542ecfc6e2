import { useTranslation } from 'react-i18next';
import { TEXT_VALUES } from '../../ui/TextPage.tsx';

interface Article {
  date: string;
  title: string;
  paragraphs: string[];
}

/** /blog: dated articles in the user's language. */
export default function BlogPage() {
  const { t, i18n } = useTranslation('pages');
  const articles = t('blog.articles', { returnObjects: true, ...TEXT_VALUES }) as Article[];
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'UTC' });
  return (
    <div className="text-page" data-testid="blog-page">
      <h1>{t('blog.title')}</h1>
      <p className="text-page__intro">{t('blog.intro')}</p>
      {articles.map((article) => (
        <article key={article.date} className="blog-article">
          <h2>{article.title}</h2>
          <p className="muted">
            <time dateTime={article.date}>{format.format(new Date(`${article.date}T00:00:00Z`))}</time>
          </p>
          {article.paragraphs.map((paragraph) => (
            <p key={paragraph.slice(0, 40)}>{paragraph}</p>
          ))}
        </article>
      ))}
    </div>
  );
}
