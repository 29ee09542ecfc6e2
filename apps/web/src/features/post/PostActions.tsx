import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useOverlay, useRequireAuth, useResumeAction } from '../../app/navigation.ts';
import { FeatureSoon } from '../../ui/Feedback.tsx';

/**
 * Like, comment, message and credits on a post. Logged out, each goes to /login and resumes here
 * after login (spec §2). Comment and message open their overlays; like waits for the posts API.
 */
export function PostActions({ postId, creator }: { postId: string; creator?: string }) {
  const { t } = useTranslation('home');
  const requireAuth = useRequireAuth();
  const navigate = useNavigate();
  const { open } = useOverlay();
  const [likeSoon, setLikeSoon] = useState(false);
  const payload: Record<string, string> = creator ? { postId, creator } : { postId };

  const like = () => setLikeSoon(true);
  const comment = () => open('comments', postId);
  const message = () => open('messages', creator ?? 'wall');
  const credits = () => navigate('/?feed=my-credits');

  useResumeAction('like', like);
  useResumeAction('comment', comment);
  useResumeAction('message', message);
  useResumeAction('credits', credits);

  return (
    <div className="post-actions">
      <fieldset className="button-row fieldset-plain">
        <legend className="sr-only">{t('post.actions')}</legend>
        <button
          type="button"
          className="button"
          data-testid="post-like"
          onClick={() => requireAuth({ kind: 'like', payload }, like)}
        >
          {t('post.like')}
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
      {likeSoon && <FeatureSoon what={t('post.likeSoon')} />}
    </div>
  );
}
