import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useOverlay, useRequireAuth, useResumeAction } from '../../app/navigation.ts';
import { Alert } from '../../ui/Feedback.tsx';

/**
 * Like, comment, message and credits on a post. Logged out, each goes to /login and resumes here
 * after login (spec §2). Like calls POST /user/post/like; comment and message open their
 * overlays; credits goes to the credits view.
 */
export function PostActions({ postId, creator }: { postId: string; creator?: string }) {
  const { t } = useTranslation('home');
  const requireAuth = useRequireAuth();
  const navigate = useNavigate();
  const { open } = useOverlay();
  const payload: Record<string, string> = creator ? { postId, creator } : { postId };
  const likeMutation = useMutation({
    mutationFn: () => api('posts.like', creator ? { id: postId, creator } : { id: postId }),
  });

  const like = () => likeMutation.mutate();
  const comment = () => open('comments', postId);
  const message = () => open('messages', creator ?? 'wall');
  const credits = () => navigate('/?feed=my-credits');

  useResumeAction('like', like);
  useResumeAction('comment', comment);
  useResumeAction('message', message);
  useResumeAction('credits', credits);

  const liked = likeMutation.data?.liked ?? false;
  return (
    <div className="post-actions">
      <fieldset className="button-row fieldset-plain">
        <legend className="sr-only">{t('post.actions')}</legend>
        <button
          type="button"
          className="button"
          aria-pressed={liked}
          disabled={likeMutation.isPending}
          data-testid="post-like"
          onClick={() => requireAuth({ kind: 'like', payload }, like)}
        >
          {liked ? t('post.liked') : t('post.like')}
          {likeMutation.data && <span className="badge">{likeMutation.data.likes}</span>}
        </button>
        <button
          type="button"
          className="button"
          data-testid="post-comment"
          onClick={() => requireAuth({ kind: 'comment', payload }, comment)}
        >
          {t('post.comment')}
        </button>
        <button
          type="button"
          className="button"
          data-testid="post-message"
          onClick={() => requireAuth({ kind: 'message', payload }, message)}
        >
          {t('post.message')}
        </button>
        <button
          type="button"
          className="button"
          data-testid="post-credits"
          onClick={() => requireAuth({ kind: 'credits', payload }, credits)}
        >
          {t('post.credits')}
        </button>
      </fieldset>
      {likeMutation.isError && <Alert>{errorText(likeMutation.error)}</Alert>}
    </div>
  );
}
