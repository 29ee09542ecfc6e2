import type { Post } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useOverlay, useRequireAuth, useStableNavigate } from '../../app/navigation.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { TipButton } from '../money/TipGift.tsx';
import { PostMenu } from '../post/PostMenu.tsx';
import { Author, Avatar } from './Author.tsx';
import { ContentIcon } from './ContentIcon.tsx';
import { imageLoading } from './imageLoading.ts';
import { PostMedia, PostPrice } from './PostMedia.tsx';
import { patchCachedPost } from './usePostsFeed.ts';

export type FeedMode = 'plus' | 'grid';

/** The like and save answers a card got for one post object. */
type Answers = { of: Post } & Partial<Pick<Post, 'liked' | 'likes' | 'saved'>>;

/** Like and save toggles of a post, kept in the card and in every cached feed. */
export function useReactions(post: Post) {
  const client = useQueryClient();
  // The toggles' answers, for as long as the card shows this post object; a new one (the cached
  // feed patched, or fetched again) carries them. No effect copies the post into state: that was a
  // second render of every card right after it mounted.
  const [answered, setAnswered] = useState<Answers>({ of: post });
  const own = answered.of === post ? answered : null;
  /** Keeps this post object's earlier answers only: a newer object already carries older ones. */
  const answer = (fields: Omit<Answers, 'of'>) =>
    setAnswered((s) => ({ ...(s.of === post ? s : {}), ...fields, of: post }));
  const state = {
    liked: own?.liked ?? post.liked,
    likes: own?.likes ?? post.likes,
    saved: own?.saved ?? post.saved,
  };
  const like = useMutation({
    mutationFn: () => api('posts.like', { id: post._id, creator: post.user.user }),
    onSuccess: ({ liked, likes }) => {
      answer({ liked, likes });
      patchCachedPost(client, post._id, { liked, likes });
    },
  });
  const save = useMutation({
    mutationFn: () => api('posts.save', { id: post._id, creator: post.user.user }),
    onSuccess: ({ saved }) => {
      answer({ saved });
      patchCachedPost(client, post._id, { saved });
      void client.invalidateQueries({ queryKey: ['posts.list', { content: 'saved' }], exact: false });
    },
  });
  return { state, like, save };
}

function ShareButton({ post }: { post: Post }) {
  const { t } = useTranslation('content');
  const [copied, setCopied] = useState(false);
  const share = async () => {
    const url = `${window.location.origin}/post/${post._id}`;
    try {
      if (navigator.share) await navigator.share({ url, title: post.user.name });
      else {
        await navigator.clipboard.writeText(url);
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }
    } catch {
      // Share cancelled or clipboard refused: nothing to do.
    }
  };
  return (
    <button type="button" className="post-action" onClick={() => void share()} data-testid="post-share">
      <ContentIcon name="share" />
      <span>{copied ? t('actions.copied') : t('actions.share')}</span>
    </button>
  );
}

/**
 * A post as a card; a story is never a post card: it shows as a story and opens in the story viewer.
 * Memoized: a feed that renders again (more cards, suggestions arriving) leaves the cards whose
 * post object is the same (the query cache shares unchanged posts) as they are.
 * `priority`: the first card of a page, whose picture is likely the largest paint (LCP): fetched at
 * once with high priority instead of lazily.
 */
export const PostCard = memo(function PostCard({
  post,
  mode = 'plus',
  priority = false,
}: {
  post: Post;
  mode?: FeedMode;
  priority?: boolean;
}) {
  return post.kind === 'story' ? (
    <StoryCard post={post} />
  ) : (
    <FullPostCard post={post} mode={mode} priority={priority} />
  );
});

/** A story wherever a list holds one (review queue, its own page): marked, with its review status. */
function StoryCard({ post }: { post: Post }) {
  const { t } = useTranslation('content');
  const { open } = useOverlay();
  const first = post.media[0];
  const image = first && !first.locked ? (first.thumb ?? first.poster ?? first.blur) : (first?.blur ?? null);
  return (
    <article
      className="post-card story-card"
      data-testid="post-card"
      data-post-id={post._id}
      data-kind="story"
    >
      <header className="post-card__header">
        <Author user={post.user} date={post.date} />
        <span className="story-card__badge" data-testid="story-badge">
          {t('stories.badge')}
        </span>
      </header>
      {post.adminStatus !== 'approved' && (
        <p className={`review-badge review-badge--${post.adminStatus}`} data-testid="post-review-status">
          {t(`review.status.${post.adminStatus}`)}
          {post.reviewReason && <> · {post.reviewReason}</>}
        </p>
      )}
      <button
        type="button"
        className="story-card__open"
        onClick={() => open('story_view', `${post.user.user}:${post._id}`)}
        data-testid="story-open"
      >
        <span className="story-bubble__ring">
          {image ? (
            <img src={image} alt="" className="story-bubble__image" />
          ) : (
            <Avatar user={post.user} size="large" />
          )}
        </span>
        <span>{t('stories.open')}</span>
      </button>
    </article>
  );
}

function FullPostCard({ post, mode, priority }: { post: Post; mode: FeedMode; priority: boolean }) {
  const { t } = useTranslation('content');
  const navigate = useStableNavigate();
  const requireAuth = useRequireAuth();
  const { open } = useOverlay();
  const { state, like, save } = useReactions(post);
  const payload = { postId: post._id, creator: post.user.user };

  if (mode === 'grid') {
    const first = post.media[0];
    const image =
      post.access && first && !first.locked ? (first.thumb ?? first.poster) : (first?.blur ?? null);
    const locked = !post.access;
    return (
      <article className="post-tile" data-testid="post-card" data-post-id={post._id} data-mode="grid">
        <Link
          to={`/post/${post._id}`}
          className="post-tile__link"
          aria-label={t('card.open', { name: post.user.name })}
        >
          {image ? (
            <img
              src={image}
              alt=""
              className={`post-tile__image${locked ? ' is-blurred' : ''}`}
              {...imageLoading(priority)}
            />
          ) : (
            <span className="post-tile__text">{post.message}</span>
          )}
          {locked && (
            <span className="post-tile__lock">
              <ContentIcon name="lock" />
              {post.visibility === 'ppv' ? <PostPrice post={post} /> : t('locked.subscribersShort')}
            </span>
          )}
          {first?.type === 'video' && (
            <span className="post-tile__badge" aria-hidden="true">
              <ContentIcon name="play" filled size={18} />
            </span>
          )}
          <span className="post-tile__counts" aria-hidden="true">
            <ContentIcon name="heart" filled size={14} /> {state.likes}{' '}
            <ContentIcon name="comment" size={14} /> {post.comments}
          </span>
        </Link>
      </article>
    );
  }

  const me = useSession.getState().user?.user;
  const doLike = () => like.mutate();
  const doComment = () => open('comments', post._id);
  return (
    <article className="post-card" data-testid="post-card" data-post-id={post._id} data-mode="plus">
      <header className="post-card__header">
        <Author user={post.user} date={post.date} />
        <PostMenu post={post} onDeleted={() => navigate(`/${post.user.user}`)} />
      </header>
      {post.adminStatus !== 'approved' && (
        <p className={`review-badge review-badge--${post.adminStatus}`} data-testid="post-review-status">
          {t(`review.status.${post.adminStatus}`)}
          {post.reviewReason && <> · {post.reviewReason}</>}
        </p>
      )}
      {post.message && <p className="post-card__text">{post.message}</p>}
      <PostMedia post={post} priority={priority} />
      <footer className="post-card__actions">
        <button
          type="button"
          className={`post-action${state.liked ? ' is-active' : ''}`}
          aria-pressed={state.liked}
          disabled={like.isPending}
          onClick={() => requireAuth({ kind: 'like', payload }, doLike)}
          data-testid="post-like"
        >
          <ContentIcon name="heart" filled={state.liked} />
          <span className="sr-only">{state.liked ? t('actions.unlike') : t('actions.like')}</span>
        </button>
        <button
          type="button"
          className="post-action post-action--count"
          onClick={() => requireAuth({ kind: 'like', payload }, () => open('likes', post._id))}
          aria-label={t('actions.likes', { count: state.likes })}
          data-testid="post-like-count"
        >
          {state.likes}
        </button>
        <button
          type="button"
          className="post-action"
          onClick={() => requireAuth({ kind: 'comment', payload }, doComment)}
          data-testid="post-comment"
        >
          <ContentIcon name="comment" />
          <span data-testid="post-comment-count">{post.comments}</span>
          <span className="sr-only">{t('actions.comments')}</span>
        </button>
        <button
          type="button"
          className={`post-action${state.saved ? ' is-active' : ''}`}
          aria-pressed={state.saved}
          disabled={save.isPending}
          onClick={() => requireAuth({ kind: 'like', payload }, () => save.mutate())}
          data-testid="post-save"
        >
          <ContentIcon name="bookmark" filled={state.saved} />
          <span>{state.saved ? t('actions.saved') : t('actions.save')}</span>
        </button>
        <ShareButton post={post} />
        {me !== post.user.user && (
          <TipButton creator={post.user.user} post={post._id} className="post-action" />
        )}
        {post.visibility !== 'free' && (
          <span className="post-card__visibility">{t(`visibility.${post.visibility}`)}</span>
        )}
      </footer>
      {(like.isError || save.isError) && <Alert>{errorText(like.error ?? save.error)}</Alert>}
    </article>
  );
}
