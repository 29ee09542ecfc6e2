import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { SinglePost } from './SinglePost.tsx';

/** /post/{id}: a single post (spec §2). */
export default function PostPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('content');
  return (
    <section className="post-page" data-testid="post-page">
      <h1 className="sr-only">{t('post.title')}</h1>
      <SinglePost id={id} />
    </section>
  );
}
