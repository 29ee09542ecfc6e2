import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useParams, useSearchParams } from 'react-router';
import { useSession } from '../../app/session.store.ts';
import { FeatureSoon } from '../../ui/Feedback.tsx';
import { PostActions } from '../post/PostActions.tsx';

/**
 * /{creator}: the creator profile (login required). Until the creator lookup exists every
 * handle renders this view; an unknown handle will then show the 404 page.
 */
export default function CreatorPage() {
  const { creator = '' } = useParams();
  const [params] = useSearchParams();
  const { t } = useTranslation('home');
  const own = useSession((s) => s.user?.user === creator);
  const postId = params.get('post');

  // Changing the creator clears stories and scrolls to the top (spec §2).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect runs when the creator changes.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [creator]);

  return (
    <section className="creator-page" data-testid="creator-page" data-creator={creator}>
      <div className="profile__cover" aria-hidden="true" />
      <div className="profile__head">
        <span className="avatar avatar--xl avatar--initial" aria-hidden="true">
          {creator.charAt(0).toUpperCase()}
        </span>
        <div>
          <h1 className="profile__name">@{creator}</h1>
          {own && <p className="muted">{t('creator.own')}</p>}
        </div>
      </div>
      <Outlet />
      {postId ? (
        <section className="panel" data-testid="creator-post" aria-labelledby="creator-post-title">
          <h2 id="creator-post-title">{t('post.title')}</h2>
          <p className="muted">{t('post.id', { id: postId })}</p>
          <FeatureSoon what={t('post.what')} />
          <PostActions postId={postId} creator={creator} />
        </section>
      ) : (
        <FeatureSoon what={t('creator.what')} />
      )}
    </section>
  );
}
