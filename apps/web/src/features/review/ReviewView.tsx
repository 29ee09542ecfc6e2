import type { AdminStatus, Post } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { PostCard } from '../feed/PostCard.tsx';
import { feedPosts, useNearBottom, usePostsFeed } from '../feed/usePostsFeed.ts';

const FILTERS = [
  { id: 'all', status: 'all' },
  { id: 'approved', status: 'approved' },
  { id: 'rejected', status: 'rejected' },
  { id: 'new', status: 'new' },
] as const;
type ReviewFilter = AdminStatus | 'all';

function toFilter(status: string): ReviewFilter {
  if (status === 'disapproved') return 'rejected';
  if (status === 'new' || status === 'pending' || status === 'approved' || status === 'rejected')
    return status;
  return 'all';
}

/** Approve / Disapprove with the confirmation of spec §4 and an optional reason. */
function ReviewControls({ post }: { post: Post }) {
  const { t } = useTranslation('content');
  const client = useQueryClient();
  const [target, setTarget] = useState<'approved' | 'rejected' | null>(null);
  const [reason, setReason] = useState('');
  const review = useMutation({
    mutationFn: (adminStatus: 'approved' | 'rejected') =>
      api('admin.postReview', { id: post._id, adminStatus, reason: reason.trim() || undefined }),
    onSuccess: () => {
      setTarget(null);
      setReason('');
      void client.invalidateQueries({ queryKey: ['posts.list'] });
    },
  });
  return (
    <div className="review-controls">
      <button
        type="button"
        className="button button--primary"
        disabled={post.adminStatus === 'approved'}
        onClick={() => setTarget('approved')}
        data-testid="review-approve"
      >
        {t('review.approve')}
      </button>
      <button
        type="button"
        className="button"
        disabled={post.adminStatus === 'rejected'}
        onClick={() => setTarget('rejected')}
        data-testid="review-reject"
      >
        {t('review.reject')}
      </button>
      <ConfirmModal
        open={target !== null}
        title={t('review.confirmTitle')}
        onCancel={() => setTarget(null)}
        onConfirm={() => target && review.mutate(target)}
        busy={review.isPending}
        danger={target === 'rejected'}
      >
        <p data-testid="review-confirm-text">
          {t('review.confirm', { status: t(`review.status.${target ?? 'approved'}`) })}
        </p>
        <label className="field">
          <span className="field__label">{t('review.reason')}</span>
          <textarea
            value={reason}
            maxLength={500}
            rows={3}
            onChange={(e) => setReason(e.target.value)}
            data-testid="review-reason"
          />
        </label>
        {review.isError && <Alert>{errorText(review.error)}</Alert>}
      </ConfirmModal>
    </div>
  );
}

/** The moderators' ratings tab: ?adminStatus=all|approved|rejected|new (spec §4). */
export function ReviewView({ status }: { status: string }) {
  const { t } = useTranslation('content');
  const filter = toFilter(status);
  const feed = usePostsFeed({ adminStatus: filter });
  const sentinel = useNearBottom(() => {
    if (feed.hasNextPage && !feed.isFetchingNextPage) void feed.fetchNextPage();
  }, !!feed.hasNextPage);
  const posts = feedPosts(feed.data);
  return (
    <section className="panel review" data-testid="view-admin-status">
      <h1 className="panel__title">{t('review.title')}</h1>
      <nav className="tabs" aria-label={t('review.filters')}>
        {FILTERS.map((f) => (
          <Link
            key={f.id}
            to={`/?adminStatus=${f.status}`}
            className={`tab${filter === f.status ? ' tab--active' : ''}`}
            aria-current={filter === f.status ? 'page' : undefined}
            data-testid={`review-filter-${f.id}`}
          >
            {t(`review.filter.${f.id}`)}
          </Link>
        ))}
      </nav>
      {feed.isPending ? (
        <Loader />
      ) : feed.isError ? (
        <Alert>{errorText(feed.error)}</Alert>
      ) : posts.length === 0 ? (
        <p className="empty-state" data-testid="feed-empty">
          {t('review.empty')}
        </p>
      ) : (
        <div className="post-list">
          {posts.map((post) => (
            <div
              key={post._id}
              className="review-item"
              data-testid="review-item"
              data-status={post.adminStatus}
            >
              <ReviewControls post={post} />
              <PostCard post={post} />
            </div>
          ))}
        </div>
      )}
      <div ref={sentinel} className="feed-sentinel" aria-hidden="true" />
      {feed.isFetchingNextPage && <Loader />}
    </section>
  );
}
