import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Author } from '../feed/Author.tsx';

/** Who liked a post, newest first, paged. */
export function LikesOverlay({ postId }: { postId: string }) {
  const { t } = useTranslation('content');
  const likes = useInfiniteQuery({
    queryKey: ['likes.list', postId],
    queryFn: ({ pageParam, signal }) => api('likes.list', { post: postId, page: pageParam }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.statistics.hasMore ? last.statistics.page + 1 : undefined),
  });
  const users = likes.data?.pages.flatMap((page) => page.users) ?? [];
  return (
    <div className="likes" data-testid="likes-overlay">
      {likes.isPending ? (
        <Loader />
      ) : likes.isError ? (
        <Alert>{errorText(likes.error)}</Alert>
      ) : users.length === 0 ? (
        <p className="empty-state">{t('likes.empty')}</p>
      ) : (
        <ul className="user-list">
          {users.map((user) => (
            <li key={user._id} data-testid="like-item">
              <Author user={user} />
            </li>
          ))}
        </ul>
      )}
      {likes.hasNextPage && (
        <button
          type="button"
          className="button button--block"
          disabled={likes.isFetchingNextPage}
          onClick={() => void likes.fetchNextPage()}
        >
          {t('likes.more')}
        </button>
      )}
    </div>
  );
}
