import type { PostsResponse } from '@fanverse/contract';
import { ADMIN_ROLES } from '@fanverse/contract';
import { lazy, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Boundary } from '../../app/hydration.tsx';
import { lazyPart } from '../../app/lazy.ts';
import { storeLoginTarget, usePageNotice } from '../../app/navigation.ts';
import { hasSomeRole, isCreator, useSession } from '../../app/session.store.ts';
import { Alert, Loader, Panel } from '../../ui/Feedback.tsx';
import { CreatorSuggestions, FeedModeToggle, PostFeed } from '../feed/PostFeed.tsx';
import { type HomeSelection, MONEY_FEEDS, needsLogin, selectHomeView } from './views.ts';

// Views other than the feeds load when chosen, so the first load of `/` carries only the feed.
const AdminView = lazy(() => import('../admin/AdminView.tsx').then((m) => ({ default: m.AdminView })));
const DeveloperView = lazy(() =>
  import('../developer/DeveloperView.tsx').then((m) => ({ default: m.DeveloperView })),
);
const DirectoryView = lazy(() =>
  import('../explore/DirectoryView.tsx').then((m) => ({ default: m.DirectoryView })),
);
const ExploreView = lazy(() =>
  import('../explore/ExploreView.tsx').then((m) => ({ default: m.ExploreView })),
);
const GalleryView = lazy(() =>
  import('../gallery/GalleryView.tsx').then((m) => ({ default: m.GalleryView })),
);
const MoneyFeedView = lazy(() =>
  import('../money/MoneyFeedView.tsx').then((m) => ({ default: m.MoneyFeedView })),
);
const NotificationsList = lazy(() =>
  import('../notifications/NotificationsList.tsx').then((m) => ({ default: m.NotificationsList })),
);
const SinglePost = lazy(() => import('../post/SinglePost.tsx').then((m) => ({ default: m.SinglePost })));
const MyProfileView = lazy(() =>
  import('../profile/MyProfileView.tsx').then((m) => ({ default: m.MyProfileView })),
);
const ReviewView = lazy(() => import('../review/ReviewView.tsx').then((m) => ({ default: m.ReviewView })));
const VisitorStories = lazyPart(() => import('../stories/StoryViewer.tsx').then((m) => m.VisitorStories));
/** Lazy parts of this page's first view (ADR 0048), loaded by the server before it renders one. */
export const firstViewParts = [VisitorStories];
const WikiView = lazy(() => import('../wiki/WikiView.tsx').then((m) => ({ default: m.WikiView })));

/** The home view: picks what to show from the query (spec §2 feed selection). */
export default function HomePage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const loggedIn = useSession((s) => !!s.token && !!s.user);
  const user = useSession((s) => s.user);
  const selection = selectHomeView(params);

  if (needsLogin(selection) && !loggedIn) {
    storeLoginTarget(`${location.pathname}${location.search}`);
    return <Navigate to="/login" replace />;
  }
  if (selection.kind === 'admin' && !hasSomeRole(user, ADMIN_ROLES)) return <Navigate to="/" replace />;

  return (
    <div className="home" data-testid="home-view" data-view={viewId(selection)}>
      <Boundary fallback={<Loader page />}>
        <HomeView selection={selection} />
      </Boundary>
      {showSuggestions(selection, user) && <Suggestions />}
    </div>
  );
}

function viewId(selection: HomeSelection): string {
  switch (selection.kind) {
    case 'feed':
      return `feed-${selection.feed}`;
    case 'view':
      return `view-${selection.view}-${selection.content}`;
    case 'adminStatus':
      return 'admin-status';
    case 'admin':
      return `admin-${selection.area}`;
    case 'feedMode':
      return `feed-mode-${selection.mode}`;
    default:
      return selection.kind;
  }
}

/** Suggestions show only to non-creators and only when no adminStatus query is set (spec §2). */
function showSuggestions(
  selection: HomeSelection,
  user: ReturnType<typeof useSession.getState>['user'],
): boolean {
  if (isCreator(user)) return false;
  // The logged-in home feed shows the suggestions of posts.list itself.
  return (selection.kind === 'home' && !useSession.getState().token) || selection.kind === 'explore';
}

function HomeView({ selection }: { selection: HomeSelection }) {
  const { t } = useTranslation('home');
  const [params] = useSearchParams();
  const loggedIn = useSession((s) => !!s.token);
  switch (selection.kind) {
    case 'feed':
      if (selection.feed === 'my-profile') return <MyProfileView />;
      if (selection.feed === 'my-notifications') {
        return (
          <Panel title={t(`feeds.${selection.feed}.title`)} testId="view-feed-my-notifications">
            <NotificationsList />
          </Panel>
        );
      }
      if (selection.feed === 'wiki') return <WikiView />;
      if (selection.feed === 'developer') return <DeveloperView />;
      if (selection.feed === 'gallery') return <GalleryView creator={params.get('creator') ?? undefined} />;
      if (MONEY_FEEDS.includes(selection.feed)) return <MoneyFeedView feed={selection.feed} />;
      if (selection.feed === 'my_content') {
        const content =
          selection.content === 'saved' || selection.content === 'bought' ? selection.content : 'all';
        return <MyContentView content={content} />;
      }
      // Every feed of views.ts has its view above (the last "coming soon" one, developer, is built).
      return <Navigate to="/" replace />;
    case 'view':
      if (selection.view === 'content') return <MyContentView content={selection.content} />;
      if (selection.view === 'wiki') return <WikiView />;
      return <DirectoryView kind={selection.view} />;
    case 'explore':
      return <ExploreView />;
    case 'adminStatus':
      return <ReviewView status={selection.status} />;
    case 'admin':
      return <AdminView area={selection.area} />;
    case 'feedMode':
      return <HomeFeed mode={selection.mode} testId={`view-feed-mode-${selection.mode}`} />;
    default:
      if (params.get('post')) return <SinglePost id={params.get('post') ?? ''} />;
      return loggedIn ? <HomeFeed mode="plus" testId="view-home" /> : <Landing />;
  }
}

/** The home feed (posts of followed and subscribed creators), plus or grid, with suggestions. */
function HomeFeed({ mode, testId }: { mode: 'plus' | 'grid'; testId: string }) {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const [suggestions, setSuggestions] = useState<PostsResponse['suggestions']>([]);
  const onData = useCallback((first: PostsResponse) => setSuggestions(first.suggestions), []);
  return (
    <section className="feed-view" data-testid={testId}>
      <div className="feed-view__bar">
        <h1 className="panel__title">{t('feed.title')}</h1>
        <FeedModeToggle mode={mode} onChange={(next) => navigate(`/?feed_mode=${next}`)} />
      </div>
      <PostFeed query={{}} mode={mode} onData={onData} />
      {!isCreator(user) && <CreatorSuggestions users={suggestions} />}
    </section>
  );
}

/** My content: all, saved or bought (spec §2 favourites shortcut). */
function MyContentView({ content }: { content: 'all' | 'saved' | 'bought' }) {
  const { t } = useTranslation('home');
  return (
    <Panel title={t('feeds.my_content.title')} testId="view-content">
      <ContentTabs active={content} />
      <PostFeed
        key={content}
        query={{ feed: 'my_content', content, view: 'content' }}
        empty={t(`content.${content}`)}
        testId={`my-content-${content}`}
      />
    </Panel>
  );
}

function ContentTabs({ active }: { active: string }) {
  const { t } = useTranslation('home');
  return (
    <nav className="tabs" aria-label={t('content.label')}>
      {(['all', 'saved', 'bought'] as const).map((content) => (
        <Link
          key={content}
          to={`/?feed=my_content&content=${content}&view=content`}
          className={`tab${active === content ? ' tab--active' : ''}`}
          aria-current={active === content ? 'page' : undefined}
        >
          {t(`content.tabs.${content}`)}
        </Link>
      ))}
    </nav>
  );
}

/** Logged-out landing with the start-up data of the server (title, subtitle, creators). */
function Landing() {
  const { t } = useTranslation('home');
  const landing = useSession((s) => s.app?.landing);
  const notice = usePageNotice();
  return (
    <section className="landing" data-testid="view-landing">
      {notice === 'accountDeleted' && (
        <Alert tone="success" testId="account-deleted-notice">
          {t('landing.accountDeleted')}
        </Alert>
      )}
      <h1>{landing?.title || t('landing.title')}</h1>
      <p className="landing__subtitle">{landing?.subtitle || t('landing.subtitle')}</p>
      <div className="button-row">
        <Link to="/signup" className="button button--primary">
          {t('landing.signup')}
        </Link>
        <Link to="/login" className="button">
          {t('landing.login')}
        </Link>
      </div>
      <Boundary fallback={null}>
        <VisitorStories />
      </Boundary>
      <section className="feed-view" aria-labelledby="visitor-feed-title">
        <h2 id="visitor-feed-title">{t('landing.freePosts')}</h2>
        <PostFeed query={{}} empty={t('landing.noPosts')} testId="visitor-feed" />
      </section>
    </section>
  );
}

function Suggestions() {
  const { t } = useTranslation('home');
  const creators = useSession((s) => s.app?.landing.creators ?? []);
  if (creators.length === 0) return null;
  return (
    <section className="suggestions" aria-labelledby="suggestions-title" data-testid="suggestions">
      <h2 id="suggestions-title">{t('suggestions.title')}</h2>
      <ul className="creator-list">
        {creators.map((creator) => (
          <li key={creator.user}>
            <Link to={`/${creator.user}`} className="creator-card">
              {creator.avatar ? (
                <img src={creator.avatar} alt="" className="avatar avatar--large" />
              ) : (
                <span className="avatar avatar--large avatar--initial" aria-hidden="true">
                  {(creator.name || creator.user).charAt(0).toUpperCase()}
                </span>
              )}
              <span className="creator-card__name">{creator.name}</span>
              <span className="creator-card__handle">@{creator.user}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
