import { ADMIN_ROLES, type Role } from '@fanverse/contract';
import {
  createBrowserRouter,
  matchRoutes,
  Navigate,
  type RouteObject,
  useLocation,
  useParams,
  useSearchParams,
} from 'react-router';
import { AppShell } from '../shell/AppShell.tsx';
import { RouteErrorScreen } from '../shell/ErrorScreen.tsx';
import { Loader } from '../ui/Feedback.tsx';
import { LoggedOutOnly, RequireAuth, RequireRoles, RequireSomeRoles } from './guards.tsx';
import { Boundary } from './hydration.tsx';
import { lazyPage, pageModule } from './lazy.ts';

/** The page name of each element made by page(), for preloadPageOf. */
const pageOfElement = new WeakMap<object, string>();

/** A lazily loaded page by name (src/features/<name>.tsx). */
function page(name: string) {
  const Page = lazyPage(name);
  const element = (
    <Boundary fallback={<Loader page />}>
      <Page />
    </Boundary>
  );
  pageOfElement.set(element, name);
  return element;
}

function redirect(to: string) {
  return <Navigate to={to} replace />;
}

/** /auth/pass needs a code query parameter, otherwise goes to /auth/code (spec §2). */
function ResetPassRoute() {
  const [params] = useSearchParams();
  return params.get('code') ? page('auth/ResetPassPage') : redirect('/auth/code');
}

/**
 * /{creator} and its child /{creator}/post/create: a leading @ is removed (replace), then login
 * is required (spec §2).
 */
function CreatorRoute({ child }: { child?: React.ReactNode }) {
  const { creator = '' } = useParams();
  const location = useLocation();
  if (creator.startsWith('@')) {
    return redirect(`${location.pathname.replace(/^\/@+/, '/')}${location.search}`);
  }
  return <RequireAuth>{child ?? page('creator/CreatorPage')}</RequireAuth>;
}

const creatorOnly = (name: string) => <RequireRoles roles={['creator']}>{page(name)}</RequireRoles>;
/** Creators (their own media) and staff (any): the leak tracer (the server's canTraceLeaks). */
const LEAK_TRACERS: readonly Role[] = ['creator', ...ADMIN_ROLES];
const tracersOnly = (name: string) => <RequireSomeRoles roles={LEAK_TRACERS}>{page(name)}</RequireSomeRoles>;
const loggedIn = (element: React.ReactNode) => <RequireAuth>{element}</RequireAuth>;
const loggedOut = (name: string) => <LoggedOutOnly>{page(name)}</LoggedOutOnly>;

/** Every route of spec §2 (checklist S2.1–S2.43). */
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    errorElement: <RouteErrorScreen />,
    children: [
      {
        errorElement: <RouteErrorScreen />,
        children: [
          { index: true, element: page('home/HomePage') },
          ...['home', 'admin', 'notifications', 'members'].map((path) => ({
            path,
            element: page('home/HomePage'),
          })),
          { path: 'about', element: page('pages/AboutPage') },
          { path: 'gallery', element: redirect('/?feed=gallery') },
          { path: 'blog', element: page('pages/BlogPage') },
          { path: 'contact', element: page('pages/ContactPage') },
          { path: 'help', element: page('pages/HelpPage') },
          { path: 'signup', element: loggedOut('auth/SignupPage') },
          { path: 'login', element: loggedOut('auth/LoginPage') },
          { path: 'terms', element: page('legal/TermsPage') },
          { path: 'privacy', element: page('legal/PrivacyPage') },
          { path: 'usc2257', element: page('legal/Usc2257Page') },
          { path: 'dmca', element: page('legal/DmcaPage') },
          { path: 'content-removal', element: page('legal/ContentRemovalPage') },
          {
            path: 'support',
            element: page('pages/SupportPage'),
            children: [
              { index: true, element: page('pages/SupportHomePage') },
              { path: 'faq', element: page('pages/SupportFaqPage') },
              { path: 'billing', element: page('pages/SupportBillingPage') },
            ],
          },
          { path: 'watch', element: page('pages/WatchPage') },
          { path: 'billing/cancel', element: page('money/CancelLinkPage') },
          { path: 'offer/:code', element: page('money/OfferPage') },
          { path: 'favorites', element: page('pages/FavoritesPage') },
          { path: 'error/api', element: page('errors/ApiErrorPage') },
          { path: 'error/:error', element: page('errors/ErrorCodePage') },
          { path: 'auth/code', element: loggedOut('auth/ResetCodePage') },
          { path: 'auth/confirm', element: page('account/ConfirmEmailPage') },
          { path: 'auth/oidc/callback', element: page('auth/OidcCallbackPage') },
          {
            path: 'auth/pass',
            element: (
              <LoggedOutOnly>
                <ResetPassRoute />
              </LoggedOutOnly>
            ),
          },
          { path: 'post/create', element: creatorOnly('post/PostEditorPage') },
          { path: 'post/edit/:id', element: creatorOnly('post/PostEditorPage') },
          { path: 'post/scheduled', element: creatorOnly('post/ScheduledPostsPage') },
          { path: 'vault', element: creatorOnly('vault/VaultPage') },
          { path: 'leaks', element: tracersOnly('leaks/LeakTracerPage') },
          { path: 'post/:id', element: page('post/PostPage') },
          { path: 'live', element: loggedIn(page('live/LivesPage')) },
          { path: 'live/new', element: creatorOnly('live/GoLivePage') },
          { path: 'live/:id', element: loggedIn(page('live/LivePage')) },
          { path: 'user', element: loggedIn(redirect('/?feed=my-profile')) },
          { path: 'user/credits', element: loggedIn(redirect('/?feed=my-credits')) },
          { path: 'user/subscriptions', element: loggedIn(redirect('/?feed=my-subscriptions')) },
          { path: 'user/gifts', element: loggedIn(redirect('/?feed=creator-statistics')) },
          { path: 'user/creator', element: loggedIn(page('user/CreatorApplyPage')) },
          { path: 'user/verify', element: loggedIn(page('user/VerifyPage')) },
          { path: 'user/devices', element: loggedIn(page('account/DevicesPage')) },
          { path: 'user/security', element: loggedIn(page('account/SecurityPage')) },
          {
            path: 'dashboard',
            element: <RequireRoles roles={['super']}>{page('dashboard/DashboardPage')}</RequireRoles>,
            children: [
              { index: true, element: page('dashboard/DashboardHomePage') },
              { path: 'admin/products', element: page('dashboard/AdminProductsPage') },
            ],
          },
          { path: ':creator', element: <CreatorRoute />, handle: { page: 'creator/CreatorPage' } },
          {
            path: ':creator/post/create',
            element: <CreatorRoute child={creatorOnly('post/PostEditorPage')} />,
          },
          { path: '*', element: page('errors/NotFoundPage') },
        ],
      },
    ],
  },
];

/**
 * Starts fetching the page chunk of `pathname` (main.tsx calls it before the first render, while
 * the catalogues load), so the page does not wait for the app to render before its chunk is asked
 * for. Only pages a route shows directly (not behind a guard) are known here.
 */
export function preloadPageOf(pathname: string): Promise<unknown>[] {
  const loading: Promise<unknown>[] = [];
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    const name =
      (route.handle as { page?: string } | undefined)?.page ??
      (route.element ? pageOfElement.get(route.element as object) : undefined);
    // A failure shows when the route renders.
    if (name) loading.push(pageModule(name).catch(() => undefined));
  }
  return loading;
}

export function createAppRouter() {
  return createBrowserRouter(routes);
}
