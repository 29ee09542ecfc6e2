import type { Comment } from '@fanverse/contract';
import { type InfiniteData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { onSocketEvent } from '../../app/socket.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Author } from '../feed/Author.tsx';
import { useLivePost } from '../feed/usePostsFeed.ts';
import { insertComment } from './commentTree.ts';

type CommentsPage = Awaited<ReturnType<typeof fetchPage>>;
function fetchPage(post: string, page: number, signal?: AbortSignal) {
  return api('comments.list', { post, page }, { signal });
}

function CommentItem({ comment, onReply }: { comment: Comment; onReply: (comment: Comment) => void }) {
  const { t } = useTranslation('content');
  return (
    <li
      className="comment"
      data-testid="comment-item"
      data-deep={comment.deep}
      style={{ marginLeft: `${Math.min(comment.deep, 4) * 20}px` }}
    >
      <Author user={comment.user} date={comment.date} />
      <p className="comment__text">{comment.message}</p>
      <button
        type="button"
        className="link-button comment__reply"
        onClick={() => onReply(comment)}
        data-testid="comment-reply"
      >
        {t('comments.reply')}
      </button>
      {comment.replies.length > 0 && (
        <ul className="comment-list comment-list--replies">
          {comment.replies.map((reply) => (
            <CommentItem key={reply._id} comment={reply} onReply={onReply} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** Comments of a post: threaded (indented by deep), 24 a page, live new comments, reply form. */
export function CommentsOverlay({ postId }: { postId: string }) {
  const { t } = useTranslation('content');
  const client = useQueryClient();
  const inputId = useId();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [replyTo, setReplyTo] = useState<Comment | null>(null);
  const key = ['comments.list', postId];
  const comments = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam, signal }) => fetchPage(postId, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last: CommentsPage) =>
      last.statistics.hasMore ? last.statistics.page + 1 : undefined,
  });

  const add = (comment: Comment) => {
    client.setQueryData<InfiniteData<CommentsPage>>(key, (data) => {
      if (!data?.pages[0]) return data;
      const [first, ...rest] = data.pages;
      const grew = !comment.parent && !first.comments.some((c) => c._id === comment._id);
      return {
        ...data,
        pages: [
          { ...first, comments: insertComment(first.comments, comment), total: first.total + (grew ? 1 : 0) },
          ...rest.map((page) => ({ ...page, comments: insertComment(page.comments, comment) })),
        ],
      };
    });
  };
  const addRef = useRef(add);
  addRef.current = add;

  // Live comments of this post while the overlay is open (the count follows through useLivePost).
  useLivePost(postId);
  useEffect(
    () =>
      onSocketEvent('comment', (payload) => {
        if (payload.postId === postId) addRef.current(payload.comment);
      }),
    [postId],
  );

  const create = useMutation({
    mutationFn: () => api('comments.create', { post: postId, message: text, parent: replyTo?._id }),
    onSuccess: ({ comment }) => {
      add(comment);
      setText('');
      setReplyTo(null);
    },
  });

  const all = comments.data?.pages.flatMap((page) => page.comments) ?? [];
  return (
    <div className="comments" data-testid="comments-overlay">
      {comments.isPending ? (
        <Loader />
      ) : comments.isError ? (
        <Alert>{errorText(comments.error)}</Alert>
      ) : all.length === 0 ? (
        <p className="empty-state">{t('comments.empty')}</p>
      ) : (
        <ul className="comment-list">
          {all.map((comment) => (
            <CommentItem
              key={comment._id}
              comment={comment}
              onReply={(c) => {
                setReplyTo(c);
                inputRef.current?.focus();
              }}
            />
          ))}
        </ul>
      )}
      {comments.hasNextPage && (
        <button
          type="button"
          className="button button--block"
          disabled={comments.isFetchingNextPage}
          onClick={() => void comments.fetchNextPage()}
        >
          {t('comments.more')}
        </button>
      )}
      <form
        className="comment-form"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        {replyTo && (
          <p className="comment-form__reply">
            {t('comments.replyingTo', { name: replyTo.user.name || replyTo.user.user })}{' '}
            <button type="button" className="link-button" onClick={() => setReplyTo(null)}>
              {t('confirm.cancel')}
            </button>
          </p>
        )}
        <label htmlFor={inputId} className="sr-only">
          {t('comments.label')}
        </label>
        <textarea
          id={inputId}
          ref={inputRef}
          value={text}
          rows={2}
          maxLength={1024}
          placeholder={t('comments.placeholder')}
          onChange={(e) => setText(e.target.value)}
          data-testid="comment-input"
        />
        {create.isError && <Alert>{errorText(create.error)}</Alert>}
        <button
          type="submit"
          className="button button--primary"
          disabled={create.isPending}
          data-testid="comment-submit"
        >
          {t('comments.send')}
        </button>
      </form>
    </div>
  );
}
