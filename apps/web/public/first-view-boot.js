// The server's first view (ADR 0048) starts the app with this small script instead of the entry's
// <script> and modulepreloads: once the server's markup has been painted, it asks for the app's
// modules (all at once, as the modulepreloads did) and runs the entry. The first paint never waits
// for the app's code, and the code does not compete with the page and its first image for the
// network before it.
const boot = document.querySelector('script[data-entry]');
const entry = boot?.getAttribute('data-entry');
if (entry?.startsWith('/assets/')) {
  requestAnimationFrame(() =>
    setTimeout(() => {
      for (const href of (boot.getAttribute('data-modules') ?? '').split(' ')) {
        if (!href.startsWith('/assets/')) continue;
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        link.href = href;
        document.head.appendChild(link);
      }
      import(entry);
    }, 0),
  );
}
