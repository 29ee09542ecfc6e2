import type { CreatorProfile, PostsResponse } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError, api, errorText } from '../../app/api.ts';
import { useUi } from '../../app/ui.store.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Modal } from '../../ui/Modal.tsx';
import NotFoundPage from '../errors/NotFoundPage.tsx';
import { Avatar, TimeAgo } from '../feed/Author.tsx';
import { ContentIcon } from '../feed/ContentIcon.tsx';
import { dollars, priceDisplay } from '../feed/format.ts';
import { FeedModeToggle, PostFeed, useFeedMode } from '../feed/PostFeed.tsx';
import type { SubscribeIntent } from '../feed/UserPreviewCard.tsx';
import { Gallery } from '../gallery/GalleryView.tsx';
import { MessageUserButton } from '../messages/MessageUserButton.tsx';
import { SubscriptionReturnMessage } from '../money/CheckoutReturn.tsx';
import { SubscribeCheckout } from '../money/SubscribeCheckout.tsx';
import { TipButton } from '../money/TipGift.tsx';
import { SinglePost } from '../post/SinglePost.tsx';
import { StoriesRow } from '../stories/StoriesRow.tsx';
import { ProfileImagePicker } from './ProfileImagePicker.tsx';

/** Monthly price in dollars, with the discount only while active (spec §9). */
function SubscriptionPrice({ profile }: { profile: CreatorProfile }) {
  const { t } = useTranslation('content');
  if (profile.subscriptionPrice === null) return null;
  const shown = priceDisplay(
    profile.subscriptionPrice,
    profile.subscriptionFinalPrice ?? profile.subscriptionPrice,
    profile,
  );
  return (
    <span className="price">
      <strong>{t('creator.perMonth', { price: dollars(shown.price) })}</strong>
      {shown.original !== null && (
        <>
          {' '}
          <s>{`$${dollars(shown.original)}`}</s>{' '}
          <span className="discount-badge">{t('price.off', { percent: shown.percent })}</span>
        </>
      )}
    </span>
  );
}

function SubscribeOverlay({ profile, onClose }: { profile: CreatorProfile; onClose: () => void }) {
  const { t } = useTranslation('content');
  const screen = useUi((s) => s.screen);
  const name = profile.displayName || profile.name || profile.user;
  return (
    <Modal
      open
      onClose={onClose}
      title={t('creator.subscribeTitle', { name })}
      testId="buy-subscription-overlay"
      variant={screen === 'mobile' ? 'sheet' : 'dialog'}
    >
      <div className="subscribe-offer">
        <Avatar user={profile} size="large" />
        <p>{t('creator.subscribeText', { name })}</p>
        <SubscribeCheckout profile={profile} />
      </div>
    </Modal>
  );
}

/** Owner tools: new post, new story, edit profile, change avatar / cover (adjust editor). */
function OwnerTools({ profile }: { profile: CreatorProfile }) {
  const { t } = useTranslation('content');
  return (
    <div className="creator-tools" data-testid="creator-tools">
      <Link
        to={`/${profile.user}/post/create`}
        className="button button--primary"
        data-testid="creator-new-post"
      >
        {t('creator.newPost')}
      </Link>
      <Link to="/post/create?kind=story" className="button" data-testid="creator-new-story">
        {t('creator.newStory')}
      </Link>
      <Link to="/?feed=my-profile" className="button">
        {t('creator.editProfile')}
      </Link>
      <ProfileImagePicker />
    </div>
  );
}

function CreatorHeader({ profile, subscribed }: { profile: CreatorProfile; subscribed: boolean }) {
  const { t } = useTranslation('content');
  const client = useQueryClient();
  const [subscribing, setSubscribing] = useState(false);
  const name = profile.displayName || profile.name || profile.user;
  // "Subscribe" on a user preview card comes here and opens the overlay once (not again on reload).
  const location = useLocation();
  const navigate = useNavigate();
  const intent = (location.state as SubscribeIntent | null)?.subscribe === true;
  useEffect(() => {
    if (!intent) return;
    if (!profile.isMe && profile.subscriptionPrice !== null) setSubscribing(true);
    navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null });
  }, [intent, profile.isMe, profile.subscriptionPrice, navigate, location.pathname, location.search]);
  const follow = useMutation({
    mutationFn: () => api('user.follow', { creator: profile.user }),
    onSuccess: ({ following }) => {
      client.setQueryData<CreatorProfile>(['creator.profile', profile.user.toLowerCase()], (old) =>
        old ? { ...old, following } : old,
      );
      void client.invalidateQueries({ queryKey: ['user.following'] });
    },
  });
  return (
    <header className="creator-header" data-testid="creator-header">
      <div className="profile__cover creator-header__cover">
        {profile.cover && <img src={profile.cover} alt="" className="profile__cover-image" />}
      </div>
      <div className="creator-header__main">
        <Avatar user={profile} size="xl" showOnline showLive />
        <div className="creator-header__who">
          <h1 className="profile__name">
            {name}
            {profile.verified && (
              <span className="verified" role="img" aria-label={t('author.verified')}>
                <ContentIcon name="check" size={12} />
              </span>
            )}
          </h1>
          <p className="profile__handle">
            @{profile.user}
            {profile.online ? (
              <>
                {' · '}
                <span className="online-text">{t('author.online')}</span>
              </>
            ) : profile.lastConnection ? (
              <>
                {' · '}
                <TimeAgo iso={profile.lastConnection} prefix="seen" />
              </>
            ) : null}
          </p>
        </div>
      </div>
      {profile.about && <p className="creator-page__about">{profile.about}</p>}
      <ul className="creator-counts">
        {(['posts', 'media', 'likes', 'subscribers'] as const).map((key) => (
          <li key={key}>
            <strong>{profile.counts[key]}</strong>{' '}
            {t(`creator.counts.${key}`, { count: profile.counts[key] })}
          </li>
        ))}
      </ul>
      {profile.isMe ? (
        <OwnerTools profile={profile} />
      ) : (
        <div className="button-row creator-header__actions">
          {profile.subscriptionPrice !== null && (
            <button
              type="button"
              className="button button--primary creator-subscribe"
              onClick={() => setSubscribing(true)}
              data-testid="creator-subscribe"
            >
              {subscribed ? t('creator.subscribed') : t('creator.subscribe')}{' '}
              <SubscriptionPrice profile={profile} />
            </button>
          )}
          <button
            type="button"
            className={`button${profile.following ? ' is-active' : ''}`}
            aria-pressed={profile.following}
            disabled={follow.isPending}
            onClick={() => follow.mutate()}
            data-testid="creator-follow"
          >
            <ContentIcon name="star" filled={profile.following} size={18} />
            &nbsp;
            {profile.following ? t('creator.following') : t('creator.follow')}
          </button>
          <MessageUserButton handle={profile.user} />
          <TipButton creator={profile.user} />
        </div>
      )}
      {follow.isError && <Alert>{errorText(follow.error)}</Alert>}
      {subscribing && <SubscribeOverlay profile={profile} onClose={() => setSubscribing(false)} />}
    </header>
  );
}

/**
 * /{creator}: the creator profile (login required). An unknown handle shows the 404 page.
 * Stories row, posts in plus / grid mode, gallery; ?post=id shows that post.
 */
export default function CreatorPage() {
  const { creator = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { t } = useTranslation('content');
  const postId = params.get('post');
  const [mode, hrefFor] = useFeedMode();
  const [tab, setTab] = useState<'posts' | 'gallery'>('posts');
  const [subscribed, setSubscribed] = useState(false);
  const onData = useCallback((first: PostsResponse) => setSubscribed(first.iSubscriptor), []);
  const query = useQuery({
    queryKey: ['creator.profile', creator.toLowerCase()],
    queryFn: () => api('creator.profile', undefined, { params: { id: creator } }),
  });

  // Changing the creator clears stories and scrolls to the top (spec §2); stories are keyed by creator.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect runs when the creator changes.
  useEffect(() => {
    window.scrollTo(0, 0);
    setTab('posts');
  }, [creator]);

  if (query.isPending) return <Loader page />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <NotFoundPage />;
    return <Alert>{errorText(query.error)}</Alert>;
  }
  const profile = query.data;

  return (
    <section className="creator-page" data-testid="creator-page" data-creator={profile.user}>
      <SubscriptionReturnMessage handle={profile.user} />
      <CreatorHeader profile={profile} subscribed={subscribed} />
      <StoriesRow key={profile.user} creator={profile.user} isMe={profile.isMe} />
      {postId ? (
        <section className="creator-post" data-testid="creator-post" aria-label={t('post.title')}>
          <Link to={`/${profile.user}`} className="button button--small">
            {t('creator.allPosts')}
          </Link>
          <SinglePost id={postId} />
        </section>
      ) : (
        <>
          <div className="creator-page__bar">
            <nav className="tabs" aria-label={t('creator.sections')}>
              {(['posts', 'gallery'] as const).map((value) => (
                <button
                  key={value}
                  type="button"
                  className={`tab${tab === value ? ' tab--active' : ''}`}
                  aria-pressed={tab === value}
                  onClick={() => setTab(value)}
                  data-testid={`creator-tab-${value}`}
                >
                  {t(`creator.tabs.${value}`)}
                </button>
              ))}
            </nav>
            {tab === 'posts' && (
              <FeedModeToggle mode={mode} onChange={(next) => navigate(hrefFor(next), { replace: true })} />
            )}
          </div>
          {tab === 'posts' ? (
            <PostFeed
              key={profile.user}
              query={{ creator: profile.user }}
              mode={mode}
              onData={onData}
              empty={profile.isMe ? t('creator.emptyOwn') : t('creator.empty')}
            />
          ) : (
            <Gallery creator={profile.user} />
          )}
        </>
      )}
    </section>
  );
}
