import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { FeatureSoon, Panel } from '../../ui/Feedback.tsx';
import { PostActions } from './PostActions.tsx';

/** /post/{id}: a single post (spec §2). The post itself arrives with the posts feature. */
export default function PostPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('home');
  return (
    <Panel title={t('post.title')} testId="post-page">
      <p className="muted">{t('post.id', { id })}</p>
      <FeatureSoon what={t('post.what')} />
      <PostActions postId={id} />
    </Panel>
  );
}
