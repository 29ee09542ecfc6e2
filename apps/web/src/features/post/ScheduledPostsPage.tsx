import type { Post } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Field } from '../../ui/Field.tsx';
import { localZone, toLocalInput } from './localTime.ts';

/** /post/scheduled: the creator's queue of scheduled posts — change the time, publish now, cancel. */
export default function ScheduledPostsPage() {
  const { t } = useTranslation('content');
  const queue = useQuery({ queryKey: ['posts.scheduled'], queryFn: () => api('posts.scheduled') });
  return (
    <section className="panel scheduled" data-testid="scheduled-page">
      <div className="scheduled__head">
        <h1 className="panel__title">{t('scheduled.title')}</h1>
        <Link to="/post/create" className="button button--primary">
          {t('scheduled.newPost')}
        </Link>
      </div>
      {queue.isPending && <Loader />}
      {queue.isError && <Alert>{errorText(queue.error)}</Alert>}
      {queue.data && queue.data.posts.length === 0 && <p className="muted">{t('scheduled.empty')}</p>}
      <ul className="scheduled__list">
        {queue.data?.posts.map((post) => (
          <ScheduledItem key={post._id} post={post} />
        ))}
      </ul>
    </section>
  );
}

function ScheduledItem({ post }: { post: Post }) {
  const { t, i18n } = useTranslation('content');
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(post.publishAt ? toLocalInput(post.publishAt) : '');
  const [cancelling, setCancelling] = useState(false);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['posts.scheduled'] });
    void client.invalidateQueries({ queryKey: ['posts.list'] });
  };
  const schedule = useMutation({
    mutationFn: (publishAt: string | null) => api('posts.schedule', { id: post._id, publishAt }),
    onSuccess: () => {
      setEditing(false);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => api('posts.delete', undefined, { params: { id: post._id } }),
    onSuccess: () => {
      setCancelling(false);
      refresh();
    },
  });
  // Shown in the viewer's own time zone and language.
  const when = post.publishAt
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short' }).format(
        new Date(post.publishAt),
      )
    : '';
  const state =
    post.adminStatus === 'approved'
      ? 'approved'
      : post.adminStatus === 'processing' || post.adminStatus === 'failed'
        ? post.adminStatus
        : 'review';
  const thumb = post.media[0]?.thumb ?? post.media[0]?.src ?? null;
  return (
    <li className="scheduled__item" data-testid="scheduled-item">
      {thumb ? <img className="scheduled__thumb" src={thumb} alt="" /> : <div className="scheduled__thumb" />}
      <div className="scheduled__body">
        <p className="scheduled__message">{post.message || '—'}</p>
        <p data-testid="scheduled-when">
          <time dateTime={post.publishAt ?? undefined}>{t('scheduled.at', { date: when })}</time>
        </p>
        <p className={`scheduled__state scheduled__state--${state}`} data-testid="scheduled-state">
          {t(`scheduled.${state}`)}
        </p>
        {schedule.isError && <Alert>{errorText(schedule.error)}</Alert>}
        {editing ? (
          <form
            className="scheduled__edit"
            onSubmit={(e) => {
              e.preventDefault();
              if (value) schedule.mutate(new Date(value).toISOString());
            }}
          >
            <Field
              name="publishAt"
              type="datetime-local"
              label={t('editor.publishAt')}
              value={value}
              onChange={setValue}
              required
            />
            <p className="muted">{t('editor.publishAtHint', { zone: localZone() })}</p>
            <div className="button-row">
              <button type="button" className="button" onClick={() => setEditing(false)}>
                {t('scheduled.cancelEdit')}
              </button>
              <button type="submit" className="button button--primary" disabled={schedule.isPending}>
                {t('scheduled.save')}
              </button>
            </div>
          </form>
        ) : (
          <div className="button-row scheduled__actions">
            <button
              type="button"
              className="button"
              onClick={() => setEditing(true)}
              data-testid="scheduled-change"
            >
              {t('scheduled.change')}
            </button>
            <button
              type="button"
              className="button"
              onClick={() => schedule.mutate(null)}
              disabled={schedule.isPending}
              data-testid="scheduled-now"
            >
              {t('scheduled.publishNow')}
            </button>
            <button
              type="button"
              className="button button--danger"
              onClick={() => setCancelling(true)}
              data-testid="scheduled-cancel"
            >
              {t('scheduled.cancel')}
            </button>
            <Link className="button button--plain" to={`/post/${post._id}`}>
              {t('scheduled.open')}
            </Link>
          </div>
        )}
      </div>
      <ConfirmModal
        open={cancelling}
        title={t('scheduled.cancel')}
        onConfirm={() => remove.mutate()}
        onCancel={() => setCancelling(false)}
        busy={remove.isPending}
        danger
      >
        {t('scheduled.confirmCancel')}
      </ConfirmModal>
    </li>
  );
}
