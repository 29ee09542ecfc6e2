import { ADMIN_ROLES, type Counters } from '@fanverse/contract';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useLogout } from '../app/lifecycle.ts';
import { myFeedPath } from '../app/navigation.ts';
import { hasSomeRole, isCreator, useSession } from '../app/session.store.ts';
import { useUi } from '../app/ui.store.ts';
import { type AdminArea, areaAllowed } from '../features/admin/adminAreas.ts';
import { Modal } from '../ui/Modal.tsx';

/** Admin areas of spec §2, reached with ?admin=<area>; the counter shows what waits for review. */
export const ADMIN_AREAS: { area: AdminArea; counter?: keyof Counters }[] = [
  { area: 'home' },
  { area: 'sales' },
  { area: 'complaints', counter: 'complaintsByVerify' },
  { area: 'verifications', counter: 'documentsByVerify' },
  { area: 'bags' },
  { area: 'fans' },
  { area: 'users' },
  { area: 'creators', counter: 'creatorsByVerify' },
  { area: 'profiles', counter: 'profilesByVerify' },
  { area: 'statistics' },
];

/** A queue counter as a badge (spec §3 store counters); nothing when the queue is empty. */
function CounterBadge({ counters, counter }: { counters: Counters | null; counter: keyof Counters }) {
  const { t } = useTranslation('shell');
  const value = counters?.[counter] ?? 0;
  if (value <= 0) return null;
  return (
    <span className="badge" data-testid={`badge-${counter}`}>
      {value > 99 ? '99+' : value}
      <span className="sr-only"> {t('adminMenu.waiting')}</span>
    </span>
  );
}

export const FAVORITES_PATH = '/?feed=my_content&content=all&view=content';

/** Closes a menu when the page changes. */
function useCloseOnNavigate(close: () => void) {
  const location = useLocation();
  const first = useRef(true);
  const closeRef = useRef(close);
  closeRef.current = close;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every location change only.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    closeRef.current();
  }, [location.key]);
}

/** The admin menu: Ctrl+Enter anywhere, or the admin-mobile button at phone width (spec §2). */
export function AdminMenu() {
  const { t } = useTranslation('shell');
  const open = useUi((s) => s.adminMenuOpen);
  const setOpen = useUi((s) => s.setAdminMenuOpen);
  const user = useSession((s) => s.user);
  const counters = useSession((s) => s.counters);
  const screen = useUi((s) => s.screen);
  useCloseOnNavigate(() => setOpen(false));
  if (!hasSomeRole(user, ADMIN_ROLES)) return null;
  return (
    <Modal
      open={open}
      onClose={() => setOpen(false)}
      title={t('adminMenu.title')}
      variant={screen === 'mobile' ? 'sheet' : 'dialog'}
      testId="admin-menu"
    >
      <nav aria-label={t('adminMenu.title')}>
        <ul className="menu-list">
          {ADMIN_AREAS.filter(({ area }) => areaAllowed(area, user)).map(({ area, counter }) => (
            <li key={area}>
              <Link to={`/?admin=${area}`} className="menu-list__item" data-testid={`admin-menu-${area}`}>
                {t(`adminMenu.areas.${area}`)}
                {counter && <CounterBadge counters={counters} counter={counter} />}
              </Link>
            </li>
          ))}
          <li>
            <Link to="/?adminStatus=pending" className="menu-list__item" data-testid="admin-menu-review">
              {t('adminMenu.review')}
              <CounterBadge counters={counters} counter="postsByReview" />
            </Link>
          </li>
          {hasSomeRole(user, ['super']) && (
            <li>
              <Link to="/dashboard" className="menu-list__item">
                {t('adminMenu.dashboard')}
              </Link>
            </li>
          )}
        </ul>
      </nav>
    </Modal>
  );
}

/** The creator-mobile menu at phone width (spec §2). */
export function CreatorMenu() {
  const { t } = useTranslation('shell');
  const open = useUi((s) => s.creatorMenuOpen);
  const setOpen = useUi((s) => s.setCreatorMenuOpen);
  const user = useSession((s) => s.user);
  useCloseOnNavigate(() => setOpen(false));
  if (!user || !isCreator(user)) return null;
  const items = [
    { to: `/${user.user}`, label: t('creatorMenu.myPage') },
    { to: '/post/create', label: t('creatorMenu.newPost') },
    { to: '/post/scheduled', label: t('creatorMenu.scheduled') },
    { to: '/vault', label: t('creatorMenu.vault') },
    { to: '/leaks', label: t('creatorMenu.leaks') },
    { to: '/?feed=creator-statistics', label: t('creatorMenu.statistics') },
    { to: '/?feed=my-subscribers', label: t('creatorMenu.subscribers') },
    { to: '/?feed=gallery', label: t('creatorMenu.gallery') },
    { to: '/?feed=my-notifications', label: t('creatorMenu.notifications') },
  ];
  return (
    <Modal
      open={open}
      onClose={() => setOpen(false)}
      title={t('creatorMenu.title')}
      variant="sheet"
      testId="creator-menu"
    >
      <nav aria-label={t('creatorMenu.title')}>
        <ul className="menu-list">
          {items.map((item) => (
            <li key={item.to}>
              <Link to={item.to} className="menu-list__item">
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </Modal>
  );
}

/** The user menu opened by the avatar button (spec §2). */
export function UserMenu({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('shell');
  const user = useSession((s) => s.user);
  const setHelpOpen = useUi((s) => s.setHelpOpen);
  const logout = useLogout();
  const ref = useRef<HTMLDivElement>(null);
  useCloseOnNavigate(onClose);
  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (ref.current?.contains(target)) return;
      if (target instanceof Element && target.closest('[data-testid="user-menu-button"]')) return;
      onClose();
    };
    document.addEventListener('pointerdown', onPointer);
    ref.current?.querySelector<HTMLElement>('a,button')?.focus();
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [onClose]);
  if (!user) return null;
  const creator = isCreator(user);
  return (
    <div className="popover user-menu" ref={ref} data-testid="user-menu" id="user-menu">
      <div className="user-menu__who">
        <strong>{user.name}</strong>
        <span>@{user.user}</span>
      </div>
      <nav aria-label={t('userMenu.label')}>
        <ul className="menu-list">
          <li>
            <Link className="menu-list__item" to={myFeedPath(user)}>
              {t('userMenu.myFeed')}
            </Link>
          </li>
          <li>
            <Link className="menu-list__item" to="/?feed=my-profile">
              {t('userMenu.profile')}
            </Link>
          </li>
          <li>
            <Link className="menu-list__item" to="/?feed=my-credits">
              {t('userMenu.credits')}
            </Link>
          </li>
          <li>
            <Link className="menu-list__item" to="/?feed=my-subscriptions">
              {t('userMenu.subscriptions')}
            </Link>
          </li>
          <li>
            <Link className="menu-list__item" to="/?feed=my-transactions">
              {t('userMenu.transactions')}
            </Link>
          </li>
          <li>
            <Link className="menu-list__item" to="/?view=user" data-testid="people-link">
              {t('userMenu.people')}
            </Link>
          </li>
          <li>
            <Link className="menu-list__item" to={FAVORITES_PATH} data-testid="favorites-link">
              {t('userMenu.favorites')}
            </Link>
          </li>
          {creator ? (
            <>
              <li>
                <Link className="menu-list__item" to="/post/create">
                  {t('creatorMenu.newPost')}
                </Link>
              </li>
              <li>
                <Link className="menu-list__item" to="/post/scheduled" data-testid="scheduled-link">
                  {t('creatorMenu.scheduled')}
                </Link>
              </li>
              <li>
                <Link className="menu-list__item" to="/vault" data-testid="vault-link">
                  {t('creatorMenu.vault')}
                </Link>
              </li>
              <li>
                <Link className="menu-list__item" to="/leaks" data-testid="leaks-link">
                  {t('creatorMenu.leaks')}
                </Link>
              </li>
              <li>
                <Link className="menu-list__item" to="/?feed=creator-statistics">
                  {t('creatorMenu.statistics')}
                </Link>
              </li>
              <li>
                <Link className="menu-list__item" to="/?feed=my-subscribers">
                  {t('creatorMenu.subscribers')}
                </Link>
              </li>
            </>
          ) : (
            <li>
              <Link className="menu-list__item" to="/user/creator">
                {t('userMenu.becomeCreator')}
              </Link>
            </li>
          )}
          {hasSomeRole(user, ['developer']) && (
            <li>
              <Link className="menu-list__item" to="/?feed=developer" data-testid="developer-link">
                {t('userMenu.developer')}
              </Link>
            </li>
          )}
          {hasSomeRole(user, ['super']) && (
            <li>
              <Link className="menu-list__item" to="/dashboard">
                {t('adminMenu.dashboard')}
              </Link>
            </li>
          )}
          <li>
            <button
              type="button"
              className="menu-list__item"
              onClick={() => {
                onClose();
                setHelpOpen(true);
              }}
              data-testid="menu-help"
            >
              {t('userMenu.help')}
            </button>
          </li>
          <li>
            <button
              type="button"
              className="menu-list__item"
              onClick={() => void logout()}
              data-testid="logout-button"
            >
              {t('userMenu.logout')}
            </button>
          </li>
        </ul>
      </nav>
      <button type="button" className="sr-only-focusable" onClick={onClose} data-close="">
        {t('close', { ns: 'common' })}
      </button>
    </div>
  );
}
