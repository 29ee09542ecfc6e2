import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { useMoneyFormat } from '../money/moneyFormat.ts';

const POST_ID = /^[0-9a-f-]{36}$/i;

/** The statistics overlay (?statistics=post id, ADR 0035): a post's figures for its creator and staff. */
export function PostStatistics({ postId }: { postId: string }) {
  const { t } = useTranslation('content');
  const format = useMoneyFormat();
  const query = useQuery({
    queryKey: ['posts.statistics', postId],
    queryFn: () => api('posts.statistics', undefined, { params: { id: postId } }),
    enabled: POST_ID.test(postId),
    retry: false,
  });
  if (!POST_ID.test(postId)) return <p className="empty-state">{t('post.notFound')}</p>;
  if (query.isPending) return <Loader />;
  if (query.isError) return <Alert>{errorText(query.error)}</Alert>;
  const figures = query.data;
  return (
    <dl className="details" data-testid="post-statistics">
      {(['likes', 'comments', 'saves', 'unlocks'] as const).map((key) => (
        <div key={key} className="details__row" data-figure={key}>
          <dt>{t(`info.${key}`)}</dt>
          <dd>{format.number(figures[key])}</dd>
        </div>
      ))}
    </dl>
  );
}
