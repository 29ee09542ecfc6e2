// Fanverse service worker. It caches nothing: its only job is to tell the open app that a new
// build was deployed. The build rewrites BUILD_ID, so every deploy changes this file's bytes,
// the browser installs the new worker and the app shows the update prompt and banner.
const BUILD_ID = 'dev';

self.addEventListener('install', () => {
  // Wait: the app asks the user before the new version takes over (message SKIP_WAITING).
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'SKIP_WAITING') self.skipWaiting();
  if (event.data && event.data.type === 'GET_VERSION' && event.source) {
    event.source.postMessage({ type: 'VERSION', buildId: BUILD_ID });
  }
});
