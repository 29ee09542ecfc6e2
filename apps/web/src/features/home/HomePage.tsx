import { ADMIN_ROLES } from '@fanverse/contract';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router';
import { storeLoginTarget } from '../../app/navigation.ts';
import { hasSomeRole, isCreator, useSession } from '../../app/session.store.ts';
import { FeatureSoon, Panel } from '../../ui/Feedback.tsx';
import { MyProfileView } from '../profile/MyProfileView.tsx';
import { type HomeSelection, needsLogin, selectHomeView } from './views.ts';

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
      <HomeView selection={selection} />
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
  return selection.kind === 'home' || selection.kind === 'explore';
}

function HomeView({ selection }: { selection: HomeSelection }) {
  const { t } = useTranslation('home');
  const loggedIn = useSession((s) => !!s.token);
  switch (selection.kind) {
    case 'feed':
      if (selection.feed === 'my-profile') return <MyProfileView />;
      return (
        <Panel title={t(`feeds.${selection.feed}.title`)} testId={`view-feed-${selection.feed}`}>
          <FeatureSoon what={t(`feeds.${selection.feed}.what`)} />
        </Panel>
      );
    case 'view':
      return (
        <Panel title={t(`views.${selection.view}`)} testId={`view-${selection.view}`}>
          {selection.view === 'content' && <ContentTabs active={selection.content} />}
          <FeatureSoon
            what={t(selection.view === 'content' ? `content.${selection.content}` : 'views.what')}
          />
        </Panel>
      );
    case 'explore':
      return (
        <Panel title={t('explore.title')} testId="view-explore">
          <FeatureSoon what={t('explore.what')} />
        </Panel>
      );
    case 'adminStatus':
      return (
        <Panel title={t('adminStatus.title', { status: selection.status })} testId="view-admin-status">
          <FeatureSoon what={t('adminStatus.what')} />
        </Panel>
      );
    case 'admin':
      return (
        <Panel
          title={t('admin.title', { area: t(`areas.${selection.area}`, { defaultValue: selection.area }) })}
          testId="view-admin"
        >
          <FeatureSoon what={t('admin.what')} />
        </Panel>
      );
    case 'feedMode':
      return (
        <Panel title={t(`feedMode.${selection.mode}`)} testId={`view-feed-mode-${selection.mode}`}>
          <FeatureSoon what={t('feedMode.what')} />
        </Panel>
      );
    default:
      return loggedIn ? (
        <Panel title={t('feed.title')} testId="view-home">
          <FeatureSoon what={t('feed.what')} />
        </Panel>
      ) : (
        <Landing />
      );
  }
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
  return (
    <section className="landing" data-testid="view-landing">
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
