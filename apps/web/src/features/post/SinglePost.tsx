import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { PostCard } from '../feed/PostCard.tsx';
import { useResumeReactions } from '../feed/PostFeed.tsx';
import { feedPosts, useLivePost, usePostsFeed } from '../feed/usePostsFeed.ts';

/** One post by id (GET /posts?post=id), as a plus card. */
export function SinglePost({ id, creator }: { id: string; creator?: string }) {
  const { t } = useTranslation('content');
  const valid = /^[0-9a-f-]{36}$/i.test(id);
  const feed = usePostsFeed(creator ? { post: id, creator } : { post: id }, valid);
  useResumeReactions();
  useLivePost(valid ? id : undefined);
  if (!valid) return <p className="empty-state">{t('post.notFound')}</p>;
  if (feed.isPending) return <Loader />;
  if (feed.isError) return <Alert>{errorText(feed.error)}</Alert>;
  const post = feedPosts(feed.data)[0];
  if (!post) {
    return (
      <p className="empty-state" data-testid="post-not-found">
        {t('post.notFound')}
      </p>
    );
  }
  return <PostCard post={post} priority />;
}
