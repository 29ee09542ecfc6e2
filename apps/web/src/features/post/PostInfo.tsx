import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { TimeAgo } from '../feed/Author.tsx';
import { PostPrice } from '../feed/PostMedia.tsx';
import { feedPosts, usePostsFeed } from '../feed/usePostsFeed.ts';

/** Post info overlay (?post_view=id): author, date, visibility, price, counts, review state. */
export function PostInfo({ postId }: { postId: string }) {
  const { t } = useTranslation('content');
  const feed = usePostsFeed({ post: postId }, /^[0-9a-f-]{36}$/i.test(postId));
  if (feed.isPending) return <Loader />;
  if (feed.isError) return <Alert>{errorText(feed.error)}</Alert>;
  const post = feedPosts(feed.data)[0];
  if (!post) return <p className="empty-state">{t('post.notFound')}</p>;
  const rows: [string, React.ReactNode][] = [
    [t('info.author'), `${post.user.name} (@${post.user.user})`],
    [t('info.date'), <TimeAgo key="d" iso={post.date} />],
    [t('info.kind'), t(`editor.kinds.${post.kind}`)],
    [t('info.visibility'), t(`visibility.${post.visibility}`)],
    [t('info.media'), post.media.length],
    [t('info.likes'), post.likes],
    [t('info.comments'), post.comments],
    [t('info.status'), t(`review.status.${post.adminStatus}`)],
  ];
  if (post.visibility === 'ppv') rows.splice(4, 0, [t('info.price'), <PostPrice key="p" post={post} />]);
  return (
    <dl className="details" data-testid="post-info-overlay">
      {rows.map(([label, value]) => (
        <div key={label} className="details__row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
