import { useUi } from './ui.store.ts';

const UPDATE_CHECK_MS = 60_000;
let waiting: ServiceWorker | null = null;

/**
 * Registers public/sw.js in production builds. When a new worker waits (a new deploy), the app
 * shows the update prompt and banner (spec §4 updates flag); Reload hands over and reloads.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const hadController = !!navigator.serviceWorker.controller;
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!hadController || reloading) return;
    reloading = true;
    window.location.reload();
  });
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register('/sw.js')
      .then((registration) => {
        const markWaiting = (worker: ServiceWorker | null) => {
          if (worker && navigator.serviceWorker.controller) {
            waiting = worker;
            useUi.getState().setUpdateAvailable(true);
          }
        };
        markWaiting(registration.waiting);
        registration.addEventListener('updatefound', () => {
          const installing = registration.installing;
          installing?.addEventListener('statechange', () => {
            if (installing.state === 'installed') markWaiting(installing);
          });
        });
        const check = () => void registration.update().catch(() => undefined);
        setInterval(check, UPDATE_CHECK_MS);
        document.addEventListener('visibilitychange', () => {
          if (document.visibilityState === 'visible') check();
        });
      })
      .catch(() => undefined);
  });
}

/** Activates the waiting worker (which reloads the page), or simply reloads. */
export function applyUpdate(): void {
  if (!waiting) {
    window.location.reload();
    return;
  }
  waiting.postMessage({ type: 'SKIP_WAITING' });
  // controllerchange reloads; this is the fallback when the browser never fires it.
  setTimeout(() => window.location.reload(), 3000);
}
