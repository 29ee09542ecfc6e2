import {
  type Counters,
  DEFAULT_LANGUAGE,
  type HomeResponse,
  LANGUAGES,
  type Language,
  type Profile,
  type Role,
  type SessionUser,
  sessionUserOf,
} from '@fanverse/contract';
import { create } from 'zustand';

const TOKEN_KEY = 'token';
const USER_KEY = 'user';
const LANGUAGE_KEY = 'language';

function storageGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function storageSet(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode); the session then lasts for the tab only.
  }
}

function initialLanguage(): Language {
  const saved = storageGet(LANGUAGE_KEY);
  return (LANGUAGES as readonly string[]).includes(saved ?? '') ? (saved as Language) : DEFAULT_LANGUAGE;
}

function initialUser(): SessionUser | null {
  const raw = storageGet(USER_KEY);
  if (!raw || !storageGet(TOKEN_KEY)) return null;
  try {
    return JSON.parse(raw) as SessionUser;
  } catch {
    return null;
  }
}

export type StartupStatus = 'loading' | 'ready' | 'failed';

interface SessionState {
  token: string | null;
  user: SessionUser | null;
  profile: Profile | null;
  counters: Counters | null;
  online: boolean;
  lastConnection: string | null;
  language: Language;
  /** Start-up data of GET /?view=home. */
  app: HomeResponse | null;
  status: StartupStatus;
  /** api flag of spec §4: the start-up call answered. */
  api: boolean;
  loaded: boolean;
  setLanguage: (language: Language) => void;
  login: (token: string, user: SessionUser) => void;
  logout: () => void;
  setProfile: (profile: Profile) => void;
  setCounters: (counters: Partial<Counters>) => void;
  setPresence: (online: boolean, lastConnection: string) => void;
  setStartup: (status: StartupStatus, app?: HomeResponse | null) => void;
  setLoaded: (loaded: boolean) => void;
}

export const useSession = create<SessionState>()((set, get) => ({
  token: storageGet(TOKEN_KEY),
  user: initialUser(),
  profile: null,
  counters: null,
  online: false,
  lastConnection: null,
  language: initialLanguage(),
  app: null,
  status: 'loading',
  api: false,
  loaded: false,
  setLanguage: (language) => {
    storageSet(LANGUAGE_KEY, language);
    set({ language });
  },
  login: (token, user) => {
    storageSet(TOKEN_KEY, token);
    storageSet(USER_KEY, JSON.stringify(user));
    set({ token, user, profile: null, counters: null });
  },
  logout: () => {
    storageSet(TOKEN_KEY, null);
    storageSet(USER_KEY, null);
    set({ token: null, user: null, profile: null, counters: null, online: false });
  },
  setProfile: (profile) => {
    const current = get().user;
    const user = sessionUserOf(profile, current?.subscriptions ?? []);
    storageSet(USER_KEY, JSON.stringify(user));
    set({ profile, user, counters: profile.counters });
  },
  setCounters: (counters) => {
    const current = get().counters;
    set({ counters: current ? { ...current, ...counters } : (counters as Counters) });
  },
  setPresence: (online, lastConnection) => set({ online, lastConnection }),
  setStartup: (status, app) =>
    set(app === undefined ? { status, api: status === 'ready' } : { status, app, api: status === 'ready' }),
  setLoaded: (loaded) => set({ loaded }),
}));

/** For code outside React (the API client). */
export function readToken(): string | null {
  return useSession.getState().token;
}
export function currentLanguage(): Language {
  return useSession.getState().language;
}

export function hasAllRoles(user: SessionUser | null, roles: readonly Role[]): boolean {
  return !!user && roles.every((role) => user.roles.includes(role));
}
export function hasSomeRole(user: SessionUser | null, roles: readonly Role[]): boolean {
  return !!user && roles.some((role) => user.roles.includes(role));
}
export function isCreator(user: SessionUser | null): boolean {
  return hasSomeRole(user, ['creator']);
}
