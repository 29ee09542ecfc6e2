import type { ScreenClass } from '@fanverse/contract';
import { screenClassOf } from '@fanverse/contract';
import { create } from 'zustand';

export interface LiveNotification {
  id: string;
  message: string;
  image: string | null;
  /** In-app path the notification is about (payload.link), when any. */
  link: string | null;
}

/** Why the whole app shows the error screen instead of the page. */
export type FatalError = 'chunk' | 'css' | 'module' | null;

interface UiState {
  screen: ScreenClass;
  notifications: LiveNotification[];
  adminMenuOpen: boolean;
  creatorMenuOpen: boolean;
  userMenuOpen: boolean;
  /** The help and support overlay (features/help). */
  helpOpen: boolean;
  updateAvailable: boolean;
  updatePromptDismissed: boolean;
  fatal: FatalError;
  /** An app-level alert (spec §8: profile load failure shows the message, then reloads). */
  alert: { message: string; reload: boolean } | null;
  showAlert: (message: string, reload?: boolean) => void;
  dismissAlert: () => void;
  setScreen: (screen: ScreenClass) => void;
  pushNotification: (notification: LiveNotification) => void;
  closeNotification: (id: string) => void;
  closeAllNotifications: () => void;
  setAdminMenuOpen: (open: boolean) => void;
  setCreatorMenuOpen: (open: boolean) => void;
  setUserMenuOpen: (open: boolean) => void;
  setHelpOpen: (open: boolean) => void;
  setUpdateAvailable: (available: boolean) => void;
  dismissUpdatePrompt: () => void;
  setFatal: (fatal: FatalError) => void;
}

const MAX_POPUPS = 5;

export const useUi = create<UiState>()((set) => ({
  screen: typeof window === 'undefined' ? 'desktop' : screenClassOf(window.innerWidth),
  notifications: [],
  adminMenuOpen: false,
  creatorMenuOpen: false,
  userMenuOpen: false,
  helpOpen: false,
  updateAvailable: false,
  updatePromptDismissed: false,
  fatal: null,
  alert: null,
  showAlert: (message, reload = false) => set({ alert: { message, reload } }),
  dismissAlert: () => set({ alert: null }),
  setScreen: (screen) => set({ screen }),
  pushNotification: (notification) =>
    set((state) => ({
      notifications: [notification, ...state.notifications.filter((n) => n.id !== notification.id)].slice(
        0,
        MAX_POPUPS,
      ),
    })),
  closeNotification: (id) =>
    set((state) => ({ notifications: state.notifications.filter((n) => n.id !== id) })),
  closeAllNotifications: () => set({ notifications: [] }),
  setAdminMenuOpen: (adminMenuOpen) => set({ adminMenuOpen }),
  setCreatorMenuOpen: (creatorMenuOpen) => set({ creatorMenuOpen }),
  setUserMenuOpen: (userMenuOpen) => set({ userMenuOpen }),
  setHelpOpen: (helpOpen) => set({ helpOpen }),
  setUpdateAvailable: (updateAvailable) => set({ updateAvailable }),
  dismissUpdatePrompt: () => set({ updatePromptDismissed: true }),
  setFatal: (fatal) => set((state) => ({ fatal: state.fatal ?? fatal })),
}));
