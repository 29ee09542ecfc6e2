import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { ApiError, api, errorText } from '../../app/api.ts';
import { Alert, FeatureSoon, Loader } from '../../ui/Feedback.tsx';
import NotFoundPage from '../errors/NotFoundPage.tsx';
import { PostActions } from '../post/PostActions.tsx';

/**
 * /{creator}: the creator profile (login required). The handle is looked up with
 * GET /creator/profile/:id; an unknown handle shows the 404 page (checklist decision).
 * Posts, stories and subscription arrive with their features.
 */
export default function CreatorPage() {
  const { creator = '' } = useParams();
  const [params] = useSearchParams();
  const { t } = useTranslation('home');
  const postId = params.get('post');
  const query = useQuery({
    queryKey: ['creator.profile', creator.toLowerCase()],
    queryFn: () => api('creator.profile', undefined, { params: { id: creator } }),
  });

  // Changing the creator clears stories and scrolls to the top (spec §2).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect runs when the creator changes.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [creator]);

  if (query.isPending) return <Loader page />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <NotFoundPage />;
    return <Alert>{errorText(query.error)}</Alert>;
  }
  const profile = query.data;
  const name = profile.displayName || profile.name || profile.user;

  return (
    <section className="creator-page" data-testid="creator-page" data-creator={profile.user}>
      <div className="profile__cover" aria-hidden="true">
        {profile.cover && <img src={profile.cover} alt="" className="profile__cover-image" />}
      </div>
      <div className="profile__head">
        {profile.avatar ? (
          <img src={profile.avatar} alt="" className="avatar avatar--xl" />
        ) : (
          <span className="avatar avatar--xl avatar--initial" aria-hidden="true">
            {name.charAt(0).toUpperCase()}
          </span>
        )}
        <div>
          <h1 className="profile__name">{name}</h1>
          <p className="profile__handle">@{profile.user}</p>
          {profile.isMe && <p className="muted">{t('creator.own')}</p>}
        </div>
      </div>
      {profile.about && <p className="creator-page__about">{profile.about}</p>}
      {postId ? (
        <section className="panel" data-testid="creator-post" aria-labelledby="creator-post-title">
          <h2 id="creator-post-title">{t('post.title')}</h2>
          <FeatureSoon what={t('post.what')} />
          <PostActions postId={postId} creator={profile.user} />
        </section>
      ) : (
        <FeatureSoon what={t('creator.what')} />
      )}
    </section>
  );
}
