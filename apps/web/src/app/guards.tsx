import type { Role } from '@fanverse/contract';
import { type ReactNode, useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { storeLoginTarget, takeLoginTarget } from './navigation.ts';
import { hasAllRoles, hasSomeRole, useSession } from './session.store.ts';

/** Login required: remember the target path and go to /login (spec §2). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const loggedIn = useSession((s) => !!s.token && !!s.user);
  const location = useLocation();
  if (!loggedIn) {
    storeLoginTarget(`${location.pathname}${location.search}`);
    return <Navigate to="/login" replace />;
  }
  return children;
}

/** requireRoles of spec §6: every listed role is needed; otherwise the denied path (default /). */
export function RequireRoles({
  roles,
  deniedPath = '/',
  children,
}: {
  roles: readonly Role[];
  deniedPath?: string;
  children: ReactNode;
}) {
  const user = useSession((s) => s.user);
  return hasAllRoles(user, roles) ? children : <Navigate to={deniedPath} replace />;
}

/** requireSomeRoles of spec §6: any one listed role is enough. */
export function RequireSomeRoles({
  roles,
  deniedPath = '/',
  children,
}: {
  roles: readonly Role[];
  deniedPath?: string;
  children: ReactNode;
}) {
  const user = useSession((s) => s.user);
  return hasSomeRole(user, roles) ? children : <Navigate to={deniedPath} replace />;
}

/**
 * Pages only for logged-out visitors (/login, /signup, /auth/*). Once a session exists the
 * visitor goes to the stored target path (the page that asked for login, or a creator's pending
 * post), else to /.
 */
export function LoggedOutOnly({ children }: { children: ReactNode }) {
  const loggedIn = useSession((s) => !!s.token && !!s.user);
  return loggedIn ? <AfterLoginRedirect /> : children;
}

function AfterLoginRedirect() {
  const navigate = useNavigate();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    navigate(takeLoginTarget() ?? '/', { replace: true });
  }, [navigate]);
  return null;
}
